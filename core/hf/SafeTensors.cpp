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
#include "io/Json.h"

namespace bert {

static_assert(std::endian::native == std::endian::little,
              "safetensors stores little-endian data; big-endian hosts need byte swapping");

namespace {

// A header larger than this is not a model's tensor table but a corrupt length field.
constexpr std::uint64_t kMaxHeaderBytes = 100ULL * 1024 * 1024;

struct DtypeInfo {
    const char* name;
    at::ScalarType type;
};

constexpr DtypeInfo kDtypes[] = {
    {"F64", at::kDouble}, {"F32", at::kFloat}, {"F16", at::kHalf},  {"BF16", at::kBFloat16},
    {"I64", at::kLong},   {"I32", at::kInt},   {"I16", at::kShort}, {"I8", at::kChar},
    {"U8", at::kByte},    {"BOOL", at::kBool},
};

std::optional<at::ScalarType> dtypeFromName(const std::string& name) {
    for (const auto& info : kDtypes) {
        if (name == info.name) {
            return info.type;
        }
    }
    return std::nullopt;
}

const char* dtypeName(at::ScalarType type) {
    for (const auto& info : kDtypes) {
        if (info.type == type) {
            return info.name;
        }
    }
    throw InputError(std::string("safetensors cannot store tensors of type ") +
                     c10::toString(type));
}

struct Entry {
    std::string name;
    at::ScalarType dtype;
    std::vector<std::int64_t> shape;
    std::uint64_t begin;
    std::uint64_t end;
};

Entry parseEntry(const std::filesystem::path& file, const std::string& name,
                 const nlohmann::json& spec, std::uint64_t dataBytes) {
    auto fail = [&](const std::string& problem) {
        throw InputError(file, "tensor \"" + name + "\": " + problem);
    };
    if (!spec.is_object() || !spec.contains("dtype") || !spec.contains("shape") ||
        !spec.contains("data_offsets")) {
        fail("needs dtype, shape and data_offsets");
    }
    Entry entry;
    entry.name = name;
    if (!spec["dtype"].is_string()) {
        fail("dtype is not a string");
    }
    const auto dtype = dtypeFromName(spec["dtype"].get<std::string>());
    if (!dtype) {
        fail("unsupported dtype " + spec["dtype"].dump());
    }
    entry.dtype = *dtype;
    if (!spec["shape"].is_array()) {
        fail("shape is not a list");
    }
    std::uint64_t elements = 1;
    for (const auto& dim : spec["shape"]) {
        if (!dim.is_number_unsigned()) {
            fail("shape " + spec["shape"].dump() + " holds something other than sizes");
        }
        const auto size = dim.get<std::uint64_t>();
        if (size != 0 && elements > std::numeric_limits<std::uint64_t>::max() / size) {
            fail("shape " + spec["shape"].dump() + " overflows");
        }
        elements *= size;
        entry.shape.push_back(static_cast<std::int64_t>(size));
    }
    const auto& offsets = spec["data_offsets"];
    if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() ||
        !offsets[1].is_number_unsigned()) {
        fail("data_offsets must be two byte offsets [begin, end]");
    }
    entry.begin = offsets[0].get<std::uint64_t>();
    entry.end = offsets[1].get<std::uint64_t>();
    if (entry.begin > entry.end || entry.end > dataBytes) {
        fail("data_offsets [" + std::to_string(entry.begin) + ", " + std::to_string(entry.end) +
             "] lie outside the data section of " + std::to_string(dataBytes) + " bytes");
    }
    const std::uint64_t expected = elements * c10::elementSize(entry.dtype);
    if (entry.end - entry.begin != expected) {
        fail("holds " + std::to_string(entry.end - entry.begin) + " bytes but dtype " +
             spec["dtype"].get<std::string>() + " and shape " + spec["shape"].dump() + " need " +
             std::to_string(expected));
    }
    return entry;
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
    if (sizeError || fileBytes < 8) {
        throw InputError(file, "is not a safetensors file (shorter than its 8-byte header length)");
    }
    std::uint64_t headerBytes = 0;
    in.read(reinterpret_cast<char*>(&headerBytes), sizeof headerBytes);
    if (headerBytes == 0 || headerBytes > kMaxHeaderBytes || headerBytes > fileBytes - 8) {
        throw InputError(file, "header length " + std::to_string(headerBytes) +
                                   " does not fit a file of " + std::to_string(fileBytes) +
                                   " bytes (truncated or not a safetensors file)");
    }
    std::string header(headerBytes, '\0');
    in.read(header.data(), static_cast<std::streamsize>(headerBytes));
    if (!in || header.front() != '{') {
        throw InputError(file, "the header does not start with a JSON object");
    }
    std::string problem;
    const auto json = parseJson(header, problem);
    if (!problem.empty() || !json.is_object()) {
        throw InputError(
            file, "the header is not valid JSON" + (problem.empty() ? "" : ": it " + problem));
    }
    const std::uint64_t dataBytes = fileBytes - 8 - headerBytes;

    SafeTensorsFile result;
    std::vector<Entry> entries;
    for (const auto& [name, spec] : json.items()) {
        if (name == "__metadata__") {
            if (!spec.is_object()) {
                throw InputError(file, "__metadata__ is not an object of strings");
            }
            for (const auto& [key, value] : spec.items()) {
                if (!value.is_string()) {
                    throw InputError(file, "__metadata__ entry \"" + key + "\" is not a string");
                }
                result.metadata[key] = value.get<std::string>();
            }
            continue;
        }
        entries.push_back(parseEntry(file, name, spec, dataBytes));
    }

    // Tensors must tile the data section exactly: no overlap, no gap, nothing left over.
    std::vector<const Entry*> byOffset;
    for (const auto& entry : entries) {
        byOffset.push_back(&entry);
    }
    std::sort(byOffset.begin(), byOffset.end(),
              [](const Entry* a, const Entry* b) { return a->begin < b->begin; });
    std::uint64_t cursor = 0;
    for (const Entry* entry : byOffset) {
        if (entry->begin < cursor) {
            throw InputError(file, "tensor \"" + entry->name + "\" overlaps the tensor before it");
        }
        if (entry->begin > cursor) {
            throw InputError(file, "tensor \"" + entry->name + "\" leaves a gap of " +
                                       std::to_string(entry->begin - cursor) +
                                       " unindexed bytes before it");
        }
        cursor = entry->end;
    }
    if (cursor != dataBytes) {
        throw InputError(file, "the data section has " + std::to_string(dataBytes) +
                                   " bytes but the tensors index " + std::to_string(cursor) +
                                   " (truncated or padded file)");
    }

    const std::uint64_t dataStart = 8 + headerBytes;
    for (const auto& entry : entries) {
        auto tensor = at::empty(entry.shape, at::TensorOptions().dtype(entry.dtype));
        if (entry.end > entry.begin) {
            in.seekg(static_cast<std::streamoff>(dataStart + entry.begin));
            in.read(static_cast<char*>(tensor.data_ptr()),
                    static_cast<std::streamsize>(entry.end - entry.begin));
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
