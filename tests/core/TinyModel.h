#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "hf/ModelFolder.h"
#include "model/Classifiers.h"
#include "model/bert/BertModel.h"
#include "train/Trainer.h"

namespace bert::test {

/// A vocabulary of the special tokens and a few dozen English words.
std::vector<std::string> tinyVocabulary();

/// A WordPiece tokenizer over tinyVocabulary().
std::shared_ptr<const Tokenizer> tinyTokenizer();

/// The BERT base model (bert.*) of a bundle made by makeTinyModel or makeModel (or loaded from a
/// BERT folder).
BertModelImpl& bertOf(const ModelBundle& bundle);
/// The linear layer to the labels (classifier.*) of a bundle's classifier.
torch::nn::LinearImpl& classifierOf(const ModelBundle& bundle);

/// A 2-layer BERT with hidden size 32 over tinyVocabulary(), initialised with seed.
ModelBundle makeTinyModel(std::uint64_t seed, std::vector<std::string> labels = {"neg", "pos"});

/// A BERT of the given size over tinyVocabulary(); dropout as given (0 for exact comparisons).
/// vocabSize > 0 gives the embedding table a real BERT's size (ids beyond the vocabulary unused).
ModelBundle makeModel(std::int64_t layers, std::int64_t hidden, std::int64_t heads, double dropout,
                      std::uint64_t seed, std::vector<std::string> labels = {"neg", "pos"},
                      std::int64_t vocabSize = 0);

/// Every model type the engine trains, one per family (test loops over them).
const std::vector<std::string>& familyModelTypes();

/// A small configuration of modelType's family, made from a config.json in the family's own
/// keys (so each family's reading runs): layers x hidden with heads, intermediate 2 x hidden
/// (ModernBERT 1.5x), every dropout as given, padding id 0 (tinyVocabulary's [PAD]; MPNet 1, fixed
/// by transformers), ELECTRA's embeddings half as wide, ModernBERT's local window 16 on two layers
/// of three, DeBERTa-v2 in v3's form (no absolute positions, c2p and p2c over 16 log buckets up
/// to 32, the table LayerNorm'd).
EncoderConfig familyConfig(const std::string& modelType, std::int64_t layers, std::int64_t hidden,
                           std::int64_t heads, double dropout,
                           const std::vector<std::string>& labels = {"neg", "pos"},
                           std::int64_t vocabSize = 0);

/// A model of familyConfig over tinyTokenizer(), initialised with seed.
ModelBundle makeFamilyModel(const std::string& modelType, std::int64_t layers, std::int64_t hidden,
                            std::int64_t heads, double dropout, std::uint64_t seed,
                            std::vector<std::string> labels = {"neg", "pos"},
                            std::int64_t vocabSize = 0);

/// Writes a CSV (columns review, sentiment) of `rows` quoted positive and negative reviews over
/// tinyVocabulary(), as the command line and the studio read it.
void writeReviewsCsv(const std::filesystem::path& file, int rows);

/// A learnable two-class task over tinyVocabulary(): "pos" when the sentence holds a positive
/// word. Lengths vary from minWords to maxWords, so padding and length grouping matter.
/// Tokenized with maxLength.
TrainingData makeTinyData(std::size_t trainCount, std::size_t validationCount, std::uint64_t seed,
                          std::size_t minWords = 3, std::size_t maxWords = 40,
                          std::size_t maxLength = 64);

/// Writes bundle's folder into a Hugging Face hub cache as huggingface_hub lays it out
/// (models--org--name/snapshots/<revision>/ linking into blobs/, refs/main when withRef).
void cacheRepo(const std::filesystem::path& cache, const std::string& repo,
               const std::string& revision, const ModelBundle& bundle, bool withRef = true);

}  // namespace bert::test
