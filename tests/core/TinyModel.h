#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "checkpoint/ModelFolder.h"

namespace bert::test {

/// A vocabulary of the special tokens and a few dozen English words.
std::vector<std::string> tinyVocabulary();

/// A 2-layer BERT with hidden size 32 over tinyVocabulary(), initialised with seed.
ModelBundle makeTinyModel(std::uint64_t seed, std::vector<std::string> labels = {"neg", "pos"});

}  // namespace bert::test
