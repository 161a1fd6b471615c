#pragma once

#include <cstddef>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace bert::cli {

/// `inspect`: configuration, parameter count, weight memory and tokenizer of a model folder.
void inspect(const std::filesystem::path& folder, bool json, std::ostream& out);

/// `predict`: label probabilities of each text under the model in folder.
void predict(const std::filesystem::path& folder, const std::vector<std::string>& texts,
             std::size_t maxLength, bool json, std::ostream& out, std::ostream& err);

/// "12.3 MiB"-style size for people.
std::string humanBytes(double bytes);

}  // namespace bert::cli
