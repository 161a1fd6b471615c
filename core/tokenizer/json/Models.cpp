#include "tokenizer/json/Models.h"

namespace bert::tokenizer_json {

namespace {
// Ids may leave gaps (tokens removed by hand), but not so many that a file of a few tokens
// with id 2,000,000,000 makes the engine allocate gigabytes.
constexpr std::size_t kMaxIdGap = 1U << 20U;
}  // namespace

void Vocabulary::add(std::string token, std::int32_t id) {
    ids_.insert_or_assign(std::move(token), id);
}

void Vocabulary::finish(const JsonContext& context) {
    std::size_t largest = 0;
    for (const auto& [token, id] : ids_) {
        largest = std::max(largest, static_cast<std::size_t>(id));
    }
    if (!ids_.empty() && largest >= ids_.size() + kMaxIdGap) {
        context.fail("token ids reach " + std::to_string(largest) + " for " +
                     std::to_string(ids_.size()) + " tokens: the ids must be about dense");
    }
    tokens_.assign(ids_.empty() ? 0 : largest + 1, std::string());
    present_.assign(tokens_.size(), false);
    for (const auto& [token, id] : ids_) {
        tokens_[static_cast<std::size_t>(id)] = token;
        present_[static_cast<std::size_t>(id)] = true;
    }
}

std::optional<std::string> Vocabulary::token(std::int32_t id) const {
    if (id < 0 || static_cast<std::size_t>(id) >= tokens_.size() ||
        !present_[static_cast<std::size_t>(id)]) {
        return std::nullopt;
    }
    return tokens_[static_cast<std::size_t>(id)];
}

std::unique_ptr<const Model> parseModel(const nlohmann::json& value, const JsonContext& context) {
    const auto& object = context.object(value);
    // Files from tokenizers before 0.10 lack "type"; their model is told by its fields.
    std::string type = context.string(object, "type", "");
    if (type.empty()) {
        type = object.contains("merges")                                   ? "BPE"
               : object.contains("vocab") && object["vocab"].is_array()    ? "Unigram"
               : object.contains("continuing_subword_prefix")              ? "WordPiece"
                                                                           : "";
    }
    if (type == "WordPiece") return parseWordPieceModel(object, context);
    if (type == "BPE") return parseBpeModel(object, context);
    if (type == "Unigram") return parseUnigramModel(object, context);
    context.at("type").fail(type.empty() ? "does not say which model it is"
                                         : "unknown model \"" + type +
                                               "\" (the engine reads WordPiece, BPE and Unigram)");
}

}  // namespace bert::tokenizer_json
