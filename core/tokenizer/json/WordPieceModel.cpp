// tokenizer.json's WordPiece model: greedy longest match, continuation pieces carrying the
// continuing_subword_prefix ("##"), the unknown token for a word that cannot be covered or
// that has more than max_input_chars_per_word characters.
#include "Error.h"
#include "text/Utf8.h"
#include "tokenizer/json/Models.h"

namespace bert::tokenizer_json {

namespace {

class WordPieceModel final : public Model {
public:
    WordPieceModel(Vocabulary vocabulary, std::string prefix, std::size_t maxChars,
                   std::string unkToken, std::filesystem::path file)
        : vocabulary_(std::move(vocabulary)),
          prefix_(std::move(prefix)),
          maxChars_(maxChars),
          unkToken_(std::move(unkToken)),
          file_(std::move(file)) {
        unkId_ = vocabulary_.find(unkToken_);
        // Continuation pieces keyed without their prefix, so a lookup needs no concatenation.
        vocabulary_.forEach([&](const std::string& token, std::int32_t id) {
            if (token.compare(0, prefix_.size(), prefix_) == 0) {
                continuations_.add(token.substr(prefix_.size()), id);
            }
        });
    }

    void tokenize(std::string_view word, std::vector<std::int32_t>& ids) const override {
        if (utf8::length(word) > maxChars_) {
            ids.push_back(unknown());
            return;
        }
        const std::size_t mark = ids.size();
        std::size_t start = 0;
        while (start < word.size()) {
            const Vocabulary& map = start == 0 ? vocabulary_ : continuations_;
            std::size_t end = word.size();
            std::optional<std::int32_t> found;
            while (end > start) {
                found = map.find(word.substr(start, end - start));
                if (found) {
                    break;
                }
                do {
                    --end;
                } while (end > start && (static_cast<unsigned char>(word[end]) & 0xC0U) == 0x80U);
            }
            if (!found) {
                ids.resize(mark);
                ids.push_back(unknown());
                return;
            }
            ids.push_back(*found);
            start = end;
        }
    }

    const Vocabulary& vocabulary() const override { return vocabulary_; }
    std::optional<std::int32_t> unkId() const override { return unkId_; }
    std::string kind() const override { return "WordPiece"; }

private:
    std::int32_t unknown() const {
        if (!unkId_) {
            throw InputError(file_, "the WordPiece vocabulary lacks its unknown token \"" +
                                        unkToken_ + "\", which this text needs");
        }
        return *unkId_;
    }

    Vocabulary vocabulary_;
    Vocabulary continuations_;
    std::string prefix_;
    std::size_t maxChars_;
    std::string unkToken_;
    std::optional<std::int32_t> unkId_;
    std::filesystem::path file_;
};

}  // namespace

std::unique_ptr<const Model> parseWordPieceModel(const nlohmann::json& object,
                                                 const JsonContext& context) {
    const auto vocabContext = context.at("vocab");
    const auto& vocab = vocabContext.object(context.required(object, "vocab"));
    Vocabulary vocabulary;
    for (const auto& [token, id] : vocab.items()) {
        vocabulary.add(token, static_cast<std::int32_t>(vocabContext.at(token).id(id)));
    }
    vocabulary.finish(vocabContext);
    return std::make_unique<WordPieceModel>(
        std::move(vocabulary), context.string(object, "continuing_subword_prefix", "##"),
        context.count(object, "max_input_chars_per_word", 100),
        context.string(object, "unk_token", "[UNK]"), context.file());
}

}  // namespace bert::tokenizer_json
