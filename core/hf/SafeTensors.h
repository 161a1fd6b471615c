#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <ATen/core/Tensor.h>

namespace bert {

/// The tensors of one safetensors file, in file order, with its "__metadata__" strings.
struct SafeTensorsFile {
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    std::map<std::string, std::string> metadata;

    /// The tensor named name, or an undefined tensor.
    at::Tensor find(const std::string& name) const;
};

/// Reads a .safetensors file into CPU tensors of the stored dtype (F64, F32, F16, BF16, I64, I32,
/// I16, I8, U8, BOOL). Every field is validated before any data is trusted: the header length
/// against the file size, the JSON, each dtype and shape, each data_offsets pair against the data
/// section and against the byte count of its dtype and shape, and that the tensors neither
/// overlap nor leave gaps. Any violation throws InputError naming the file, tensor and problem.
SafeTensorsFile readSafeTensors(const std::filesystem::path& file);

/// Writes tensors (any device, contiguous or not) as a safetensors file with the given metadata.
/// The file is written beside its final name and renamed into place, so an interrupted or failed
/// write (disk full, read-only folder) leaves any earlier file intact; failures throw StoreError.
void writeSafeTensors(const std::filesystem::path& file,
                      const std::vector<std::pair<std::string, at::Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata = {});

}  // namespace bert
