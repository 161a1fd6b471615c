#include "hf/SafeTensorsHeader.h"

#include <algorithm>
#include <limits>
#include <optional>

#include "Error.h"
#include "io/Json.h"

namespace bert {

namespace {

struct DtypeInfo {
    SafeDtype dtype;
    const char* name;
    std::size_t bytes;
};

constexpr DtypeInfo kDtypes[] = {
    {SafeDtype::F64, "F64", 8}, {SafeDtype::F32, "F32", 4},  {SafeDtype::F16, "F16", 2},
    {SafeDtype::BF16, "BF16", 2}, {SafeDtype::I64, "I64", 8}, {SafeDtype::I32, "I32", 4},
    {SafeDtype::I16, "I16", 2}, {SafeDtype::I8, "I8", 1},    {SafeDtype::U8, "U8", 1},
    {SafeDtype::Bool, "BOOL", 1},
};

std::optional<SafeDtype> dtypeFromName(const std::string& name) {
    for (const auto& info : kDtypes) {
        if (name == info.name) {
            return info.dtype;
        }
    }
    return std::nullopt;
}

SafeTensorsEntry parseEntry(const std::filesystem::path& file, const std::string& name,
                 const nlohmann::json& spec, std::uint64_t dataBytes) {
    auto fail = [&](const std::string& problem) {
        throw InputError(file, "tensor \"" + name + "\": " + problem);
    };
    if (!spec.is_object() || !spec.contains("dtype") || !spec.contains("shape") ||
        !spec.contains("data_offsets")) {
        fail("needs dtype, shape and data_offsets");
    }
    SafeTensorsEntry entry;
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
    if (elements > std::numeric_limits<std::uint64_t>::max() / safeDtypeBytes(entry.dtype)) {
        fail("shape " + spec["shape"].dump() + " overflows");
    }
    const std::uint64_t expected = elements * safeDtypeBytes(entry.dtype);
    if (entry.end - entry.begin != expected) {
        fail("holds " + std::to_string(entry.end - entry.begin) + " bytes but dtype " +
             spec["dtype"].get<std::string>() + " and shape " + spec["shape"].dump() + " need " +
             std::to_string(expected));
    }
    return entry;
}

}  // namespace

const char* safeDtypeName(SafeDtype dtype) {
    for (const auto& info : kDtypes) {
        if (info.dtype == dtype) {
            return info.name;
        }
    }
    return "?";
}

std::size_t safeDtypeBytes(SafeDtype dtype) {
    for (const auto& info : kDtypes) {
        if (info.dtype == dtype) {
            return info.bytes;
        }
    }
    return 1;
}

SafeTensorsHeader parseSafeTensorsHeader(std::uint64_t lengthField, std::string_view headerText,
                                         std::uint64_t fileBytes, const std::filesystem::path& file) {
    if (fileBytes < 8) {
        throw InputError(file, "is not a safetensors file (shorter than its 8-byte header length)");
    }
    if (lengthField == 0 || lengthField > kMaxSafeTensorsHeaderBytes || lengthField > fileBytes - 8 ||
        headerText.size() != lengthField) {
        throw InputError(file, "header length " + std::to_string(lengthField) + " does not fit a file of " +
                                   std::to_string(fileBytes) + " bytes (truncated or not a safetensors file)");
    }
    if (headerText.front() != '{') {
        throw InputError(file, "the header does not start with a JSON object");
    }
    std::string problem;
    const auto json = parseJson(headerText, problem);
    if (!problem.empty() || !json.is_object()) {
        throw InputError(file, "the header is not valid JSON" + (problem.empty() ? "" : ": it " + problem));
    }
    const std::uint64_t dataBytes = fileBytes - 8 - lengthField;

    SafeTensorsHeader header;
    header.dataStart = 8 + lengthField;
    for (const auto& [name, spec] : json.items()) {
        if (name == "__metadata__") {
            if (!spec.is_object()) {
                throw InputError(file, "__metadata__ is not an object of strings");
            }
            for (const auto& [key, value] : spec.items()) {
                if (!value.is_string()) {
                    throw InputError(file, "__metadata__ entry \"" + key + "\" is not a string");
                }
                header.metadata[key] = value.get<std::string>();
            }
            continue;
        }
        header.entries.push_back(parseEntry(file, name, spec, dataBytes));
    }

    // Tensors must tile the data section exactly: no overlap, no gap, nothing left over.
    std::vector<const SafeTensorsEntry*> byOffset;
    for (const auto& entry : header.entries) {
        byOffset.push_back(&entry);
    }
    std::sort(byOffset.begin(), byOffset.end(),
              [](const SafeTensorsEntry* a, const SafeTensorsEntry* b) { return a->begin < b->begin; });
    std::uint64_t cursor = 0;
    for (const auto* entry : byOffset) {
        if (entry->begin < cursor) {
            throw InputError(file, "tensor \"" + entry->name + "\" overlaps the tensor before it");
        }
        if (entry->begin > cursor) {
            throw InputError(file, "tensor \"" + entry->name + "\" leaves a gap of " +
                                       std::to_string(entry->begin - cursor) + " unindexed bytes before it");
        }
        cursor = entry->end;
    }
    if (cursor != dataBytes) {
        throw InputError(file, "the data section has " + std::to_string(dataBytes) + " bytes but the tensors index " +
                                   std::to_string(cursor) + " (truncated or padded file)");
    }
    return header;
}

}  // namespace bert
