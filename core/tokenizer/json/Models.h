#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "tokenizer/json/JsonContext.h"

namespace bert::tokenizer_json {

/// Token strings and their ids, looked up by string_view without a copy.
class Vocabulary {
public:
    /// Adds token with id; a token given twice keeps its last id (as the reference's maps).
    /// Throws InputError (through context) for ids far past the number of tokens.
    void add(std::string token, std::int32_t id);
    /// Checks the ids once every token is in (context names the field in errors).
    void finish(const JsonContext& context);

    std::optional<std::int32_t> find(std::string_view token) const {
        const auto it = ids_.find(token);
        return it == ids_.end() ? std::nullopt : std::optional<std::int32_t>(it->second);
    }
    /// The token with id, or nullopt.
    std::optional<std::string> token(std::int32_t id) const;
    /// Number of distinct tokens (the reference's get_vocab_size).
    std::size_t size() const { return ids_.size(); }
    /// Every (token, id).
    template <typename Visit>
    void forEach(Visit&& visit) const {
        for (const auto& [token, id] : ids_) {
            visit(token, id);
        }
    }

private:
    struct Hash {
        using is_transparent = void;
        std::size_t operator()(std::string_view s) const noexcept {
            return std::hash<std::string_view>{}(s);
        }
    };
    std::unordered_map<std::string, std::int32_t, Hash, std::equal_to<>> ids_;
    std::vector<std::string> tokens_;  ///< by id; "" where no token has the id
    std::vector<bool> present_;
};

/// The model of tokenizer.json ("model"): a pre-tokenized word in, ids out, as the `tokenizers`
/// library's WordPiece, BPE or Unigram with the same settings. Immutable once built.
class Model {
public:
    virtual ~Model() = default;
    /// Appends the ids of word (a non-empty piece of normalised, pre-tokenized text). Throws
    /// InputError where the reference fails too (an unknown piece and no unknown token).
    virtual void tokenize(std::string_view word, std::vector<std::int32_t>& ids) const = 0;
    virtual const Vocabulary& vocabulary() const = 0;
    virtual std::optional<std::int32_t> unkId() const = 0;
    /// "WordPiece", "byte-level BPE" (set by the caller where it is byte-level), "BPE", "Unigram".
    virtual std::string kind() const = 0;
};

/// A member the engine itself sets on a Unigram model object (never read from a file's meaning):
/// true where transformers builds the model from scores read by Python, correctly rounded,
/// instead of by the `tokenizers` library's JSON reader.
inline constexpr const char* kExactScoresKey = "bert_studio_exact_scores";

/// Builds the model a JSON object describes; throws InputError naming the file and the field.
std::unique_ptr<const Model> parseModel(const nlohmann::json& value, const JsonContext& context);

std::unique_ptr<const Model> parseWordPieceModel(const nlohmann::json& object,
                                                 const JsonContext& context);
std::unique_ptr<const Model> parseBpeModel(const nlohmann::json& object,
                                           const JsonContext& context);
std::unique_ptr<const Model> parseUnigramModel(const nlohmann::json& object,
                                               const JsonContext& context);

}  // namespace bert::tokenizer_json
