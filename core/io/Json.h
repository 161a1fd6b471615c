#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "Error.h"

namespace bert {

/// The deepest nesting of arrays and objects we accept in JSON a user supplies. Real files nest a
/// few levels (tokenizer.json about 6); a file of a million '[' parses (nlohmann's parser is
/// iterative) but then overflows the stack in whatever copies, compares or prints the value.
constexpr int kMaxJsonDepth = 100;

/// Parses text as JSON (nlohmann::json or nlohmann::ordered_json). On failure returns a discarded
/// value and sets problem: "nests arrays and objects deeper than 100 levels", or "is not valid
/// JSON (...)"; on success problem is cleared.
template <typename Json = nlohmann::json>
Json parseJson(std::string_view text, std::string& problem) {
    struct TooDeep {};
    problem.clear();
    try {
        auto value = Json::parse(
            text,
            [](int depth, typename Json::parse_event_t, Json&) {
                if (depth > kMaxJsonDepth) {
                    throw TooDeep{};
                }
                return true;
            },
            /*allow_exceptions=*/true);
        return value;
    } catch (const TooDeep&) {
        problem =
            "nests arrays and objects deeper than " + std::to_string(kMaxJsonDepth) + " levels";
    } catch (const nlohmann::json::exception& error) {
        problem = std::string("is not valid JSON (") + error.what() + ")";
    }
    return Json(Json::value_t::discarded);
}

/// object[key] as T, or fallback when the key is absent or null. A value of another type throws
/// InputError naming the file and the key: "field \"type\" must be text, not 7".
template <typename T>
T jsonField(const nlohmann::json& object, const char* key, T fallback,
            const std::filesystem::path& file) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return fallback;
    }
    const bool fits = std::is_same_v<T, bool>          ? it->is_boolean()
                      : std::is_same_v<T, std::string> ? it->is_string()
                      : std::is_floating_point_v<T>    ? it->is_number()
                      : std::is_unsigned_v<T>          ? it->is_number_unsigned()
                      : std::is_integral_v<T>          ? it->is_number_integer()
                                                       : true;
    if (!fits) {
        const char* expected = std::is_same_v<T, bool>          ? "true or false"
                               : std::is_same_v<T, std::string> ? "text"
                               : std::is_floating_point_v<T>    ? "a number"
                               : std::is_unsigned_v<T>          ? "a whole number of at least 0"
                                                                : "a whole number";
        throw InputError(
            file, std::string("field \"") + key + "\" must be " + expected + ", not " + it->dump());
    }
    return it->template get<T>();
}

}  // namespace bert
