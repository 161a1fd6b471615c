#include "hf/SafeTensors.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include "Error.h"
#include "io/AtomicFile.h"
#include "io/InputFile.h"
#include "hf/SafeTensorsHeader.h"

namespace bert {

static_assert(std::endian::native == std::endian::little,
              "safetensors stores little-endian data; big-endian hosts need byte swapping");

namespace {

at::ScalarType scalarType(SafeDtype dtype) {
    switch (dtype) {
        case SafeDtype::F64: return at::kDouble;
        case SafeDtype::F32: return at::kFloat;
        case SafeDtype::F16: return at::kHalf;
        case SafeDtype::BF16: return at::kBFloat16;
        case SafeDtype::I64: return at::kLong;
        case SafeDtype::I32: return at::kInt;
        case SafeDtype::I16: return at::kShort;
        case SafeDtype::I8: return at::kChar;
        case SafeDtype::U8: return at::kByte;
        case SafeDtype::Bool: return at::kBool;
    }
    return at::kFloat;
}

const char* dtypeName(at::ScalarType type) {
    for (const auto dtype : {SafeDtype::F64, SafeDtype::F32, SafeDtype::F16, SafeDtype::BF16, SafeDtype::I64,
                             SafeDtype::I32, SafeDtype::I16, SafeDtype::I8, SafeDtype::U8, SafeDtype::Bool}) {
        if (scalarType(dtype) == type) {
            return safeDtypeName(dtype);
        }
    }
    throw InputError(std::string("safetensors cannot store tensors of type ") + c10::toString(type));
}

}  // namespace

at::Tensor SafeTensorsFile::find(const std::string& name) const {
    for (const auto& [key, tensor] : tensors) {
        if (key == name) {
            return tensor;
        }
    }
    return {};
}

SafeTensorsFile readSafeTensors(const std::filesystem::path& file) {
    if (!std::filesystem::exists(file)) {
        throw InputError(file, "is missing");
    }
    checkInputFile(file,
                   std::numeric_limits<std::uint64_t>::max());  // weights may be large; FIFOs not
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(file, "cannot be opened for reading");
    }
    std::error_code sizeError;
    const std::uint64_t fileBytes = std::filesystem::file_size(file, sizeError);
    if (sizeError) {
        throw InputError(file, "cannot be read: " + sizeError.message());
    }
    std::uint64_t lengthField = 0;
    in.read(reinterpret_cast<char*>(&lengthField), sizeof lengthField);
    std::string headerText;
    if (in && lengthField > 0 && lengthField <= kMaxSafeTensorsHeaderBytes && fileBytes >= 8 &&
        lengthField <= fileBytes - 8) {
        headerText.resize(lengthField);
        in.read(headerText.data(), static_cast<std::streamsize>(lengthField));
    }
    const auto header = parseSafeTensorsHeader(lengthField, headerText, fileBytes, file);

    SafeTensorsFile result;
    result.metadata = header.metadata;
    for (const auto& entry : header.entries) {
        auto tensor = at::empty(entry.shape, at::TensorOptions().dtype(scalarType(entry.dtype)));
        if (entry.end > entry.begin) {
            in.seekg(static_cast<std::streamoff>(header.dataStart + entry.begin));
            in.read(static_cast<char*>(tensor.data_ptr()), static_cast<std::streamsize>(entry.end - entry.begin));
            if (!in) {
                throw InputError(file, "reading tensor \"" + entry.name + "\" failed");
            }
        }
        result.tensors.emplace_back(entry.name, std::move(tensor));
    }
    return result;
}

void writeSafeTensors(const std::filesystem::path& file,
                      const std::vector<std::pair<std::string, at::Tensor>>& tensors,
                      const std::map<std::string, std::string>& metadata) {
    nlohmann::json header = nlohmann::json::object();
    if (!metadata.empty()) {
        header["__metadata__"] = metadata;
    }
    std::vector<at::Tensor> contiguous;
    contiguous.reserve(tensors.size());
    std::uint64_t offset = 0;
    for (const auto& [name, tensor] : tensors) {
        if (name == "__metadata__" || header.contains(name)) {
            throw InputError(file, "tensor name \"" + name + "\" is reserved or repeated");
        }
        auto data = tensor.detach().to(at::kCPU).contiguous();
        const std::uint64_t bytes = data.nbytes();
        header[name] = {{"dtype", dtypeName(data.scalar_type())},
                        {"shape", data.sizes().vec()},
                        {"data_offsets", {offset, offset + bytes}}};
        offset += bytes;
        contiguous.push_back(std::move(data));
    }
    std::string headerText = header.dump();
    // Pad with spaces so the data section starts 8-byte aligned, as the reference writer does.
    headerText.append((8 - headerText.size() % 8) % 8, ' ');
    const std::uint64_t headerBytes = headerText.size();

    AtomicFile out(file);
    out.write(reinterpret_cast<const char*>(&headerBytes), sizeof headerBytes);
    out.write(headerText.data(), headerText.size());
    for (const auto& data : contiguous) {
        out.write(static_cast<const char*>(data.data_ptr()), data.nbytes());
    }
    out.commit();
}

}  // namespace bert
