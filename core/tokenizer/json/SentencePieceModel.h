#pragma once

#include <filesystem>
#include <string_view>

#include <nlohmann/json.hpp>

namespace bert {

/// The tokenizer.json that transformers (5.x) makes of a SentencePiece model file (spm.model,
/// as DeBERTa-v3's folders ship it without a tokenizer.json): a Unigram model over the file's
/// pieces and scores, unk_id from its trainer spec, and its control pieces (special) and user
/// defined pieces (not special) as added tokens in id order, as transformers'
/// SentencePieceExtractor gives them. No normalizer, pre-tokenizer or post-processor: the
/// tokenizer class builds those (applyTransformersSettings). bytes is the file's content, read
/// as protobuf's wire format (ModelProto: pieces = 1 {piece = 1, score = 2, type = 3},
/// trainer_spec = 2 {model_type = 3, unk_id = 40}); fields it does not use are skipped.
/// Throws InputError naming source where the bytes are not such a file, or hold a BPE model
/// (only Unigram SentencePiece models are read this way).
nlohmann::json sentencePieceTokenizerJson(std::string_view bytes,
                                          const std::filesystem::path& source);

}  // namespace bert
