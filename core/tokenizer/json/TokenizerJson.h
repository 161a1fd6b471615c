#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "tokenizer/Tokenizer.h"

namespace bert {

namespace tokenizer_json {
class AddedVocabulary;
class Model;
class Normalizer;
class PostProcessor;
class PreTokenizer;
}  // namespace tokenizer_json

/// A tokenizer read from tokenizer.json, the file of transformers' fast tokenizers and the
/// `tokenizers` library: added tokens, normalizer, pre-tokenizer, model (WordPiece, BPE,
/// Unigram) and post-processor, each giving the reference's results (see core/tokenizer/json/).
/// Invalid UTF-8 in the text reads as U+FFFD, one per bad byte, as Python's errors="replace"
/// gives the reference. Immutable and safe to use from several threads at once.
class JsonTokenizer final : public Tokenizer {
public:
    /// Parses tokenizer.json's text. config is tokenizer_config.json's object (or null), whose
    /// settings transformers applies on top (see applyTransformersSettings in LoadTokenizer.cpp:
    /// the class's pipeline, do_lower_case, add_prefix_space, added and special tokens); it is
    /// kept for save(). Throws InputError naming source and the problem.
    JsonTokenizer(std::string_view text, std::filesystem::path source,
                  nlohmann::json config = nullptr, const std::string& modelType = {});
    ~JsonTokenizer() override;

    std::vector<std::int32_t> tokenizeToIds(
        std::string_view text,
        std::size_t limit = std::numeric_limits<std::size_t>::max()) const override;
    std::vector<std::string> tokenize(std::string_view text) const override;
    Encoding encode(std::string_view text, std::size_t maxLength = 0) const override;
    Encoding encodePair(std::string_view first, std::string_view second,
                        std::size_t maxLength = 0) const override;

    WordEncoding encodeWords(const std::vector<std::string>& words,
                             std::size_t maxLength = 0) const override;

    std::optional<std::int32_t> tokenId(std::string_view token) const override;
    std::string tokenString(std::int32_t id) const override;
    std::size_t vocabularySize() const override { return vocabularySize_; }
    std::int32_t padId() const override { return padId_; }
    std::optional<std::int32_t> unkId() const override;
    std::vector<std::int32_t> specialIds() const override { return specialIds_; }
    bool lowercases() const override { return lowercases_; }
    std::string kind() const override { return kind_; }
    std::filesystem::path source() const override { return source_; }
    void save(const std::filesystem::path& folder, std::size_t modelMaxLength) const override;

    /// The transformers class whose settings were applied ("RobertaTokenizer", ...), or "".
    const std::string& transformersClass() const { return tokenizerClass_; }
    /// tokenizer_config.json's object as given (null when there was none).
    const nlohmann::json& config() const { return config_; }

    /// The normalizer alone (the text unchanged where there is none), for tests.
    std::string normalize(std::string_view text) const;
    /// The pre-tokenizer's pieces of text (after the normalizer), for tests.
    std::vector<std::string> preTokenize(std::string_view text) const;

private:
    // The ids of one text without special tokens; stops once more than limit are known.
    void appendIds(std::string_view text, std::vector<std::int32_t>& ids, std::size_t limit) const;
    Encoding finish(std::vector<std::int32_t> first, std::vector<std::int32_t>* second) const;

    std::filesystem::path source_;
    std::string originalText_;  ///< the file as read, written back by save()
    nlohmann::json config_;     ///< tokenizer_config.json's object, or null
    std::unique_ptr<const tokenizer_json::Normalizer> normalizer_;
    std::unique_ptr<const tokenizer_json::PreTokenizer> preTokenizer_;
    std::unique_ptr<const tokenizer_json::Model> model_;
    std::unique_ptr<const tokenizer_json::PostProcessor> postProcessor_;
    std::unique_ptr<const tokenizer_json::AddedVocabulary> added_;
    std::size_t vocabularySize_ = 0;
    std::int32_t padId_ = 0;
    std::vector<std::int32_t> specialIds_;
    bool lowercases_ = false;
    std::string kind_;
    std::string tokenizerClass_;  ///< the transformers class whose settings were applied
};

/// transformers' changes to a tokenizer.json it loads (the fast tokenizer class named by
/// tokenizer_config.json, or by config.json's model_type): the pipeline that class builds
/// around the file's vocabulary, do_lower_case and add_prefix_space, the added tokens of
/// added_tokens_decoder and the named special tokens. tokenizerJson is edited in place.
/// Returns the class applied ("BertTokenizer", "RobertaTokenizer", ... or "" for the file as
/// it is, which is what PreTrainedTokenizerFast does).
std::string applyTransformersSettings(nlohmann::json& tokenizerJson, const nlohmann::json& config,
                                      const std::string& modelType);

/// The tokenizer class a folder's tokenizer is: tokenizer_config.json's tokenizer_class
/// without "Fast", else tokenizerClassOfModelType(modelType); config may be null.
std::string tokenizerClassNamed(const nlohmann::json& config, const std::string& modelType);

/// The tokenizer class transformers' AutoTokenizer picks for a config.json model_type when
/// tokenizer_config.json names none ("BertTokenizer"); "" when it has none for that type (the
/// file is then taken as it is). Each family's table names the same class for its model types
/// (model/FamilyTraits.h ModelType::tokenizerClass; tests/core/FamilyRegistryTest.cpp).
std::string tokenizerClassOfModelType(const std::string& modelType);

}  // namespace bert
