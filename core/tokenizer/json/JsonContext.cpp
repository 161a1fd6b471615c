#include "tokenizer/json/JsonContext.h"

#include "Error.h"

namespace bert::tokenizer_json {

namespace {

std::string shortDump(const nlohmann::json& value) {
    std::string text = value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    if (text.size() > 60) {
        text = text.substr(0, 57) + "...";
    }
    return text;
}

}  // namespace

JsonContext JsonContext::at(const std::string& key) const {
    return JsonContext(file_, where_.empty() ? key : where_ + "." + key);
}

JsonContext JsonContext::at(std::size_t index) const {
    return JsonContext(file_, where_ + "[" + std::to_string(index) + "]");
}

void JsonContext::fail(const std::string& problem) const {
    throw InputError(file_, where_.empty() ? problem : where_ + ": " + problem);
}

const nlohmann::json& JsonContext::object(const nlohmann::json& value) const {
    if (!value.is_object()) {
        fail("must be a JSON object, not " + shortDump(value));
    }
    return value;
}

const nlohmann::json& JsonContext::array(const nlohmann::json& value) const {
    if (!value.is_array()) {
        fail("must be a JSON array, not " + shortDump(value));
    }
    return value;
}

const nlohmann::json& JsonContext::required(const nlohmann::json& object,
                                            const char* key) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        fail(std::string("lacks the field \"") + key + "\"");
    }
    return *it;
}

std::string JsonContext::string(const nlohmann::json& object, const char* key) const {
    return at(key).text(required(object, key));
}

std::string JsonContext::string(const nlohmann::json& object, const char* key,
                                const std::string& fallback) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return fallback;
    }
    return at(key).text(*it);
}

bool JsonContext::boolean(const nlohmann::json& object, const char* key, bool fallback) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return fallback;
    }
    if (!it->is_boolean()) {
        at(key).fail("must be true or false, not " + shortDump(*it));
    }
    return it->get<bool>();
}

std::uint32_t JsonContext::id(const nlohmann::json& value) const {
    if (!value.is_number_integer() || value.get<std::int64_t>() < 0 ||
        value.get<std::int64_t>() > kMaxTokenId) {
        fail("must be a token id (a whole number from 0 to 2147483647), not " + shortDump(value));
    }
    return static_cast<std::uint32_t>(value.get<std::int64_t>());
}

std::size_t JsonContext::count(const nlohmann::json& object, const char* key,
                               std::size_t fallback) const {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return fallback;
    }
    if (!it->is_number_unsigned()) {
        at(key).fail("must be a whole number of at least 0, not " + shortDump(*it));
    }
    return static_cast<std::size_t>(it->get<std::uint64_t>());
}

double JsonContext::number(const nlohmann::json& value) const {
    if (!value.is_number()) {
        fail("must be a number, not " + shortDump(value));
    }
    return value.get<double>();
}

std::string JsonContext::text(const nlohmann::json& value) const {
    if (!value.is_string()) {
        fail("must be text, not " + shortDump(value));
    }
    return value.get<std::string>();
}

}  // namespace bert::tokenizer_json
