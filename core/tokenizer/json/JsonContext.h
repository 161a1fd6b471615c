#pragma once

#include <cstdint>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace bert::tokenizer_json {

/// Where in tokenizer.json a part is read from, for errors that name the file and the field:
/// "tokenizer.json: normalizer.normalizers[1]: unknown type \"Foo\"". Every accessor checks the
/// value's type and throws InputError instead of letting nlohmann throw its own exception.
class JsonContext {
public:
    JsonContext(std::filesystem::path file, std::string where)
        : file_(std::move(file)), where_(std::move(where)) {}

    const std::filesystem::path& file() const { return file_; }
    const std::string& where() const { return where_; }

    /// The context of a member or element: "model.vocab", "normalizer.normalizers[2]".
    JsonContext at(const std::string& key) const;
    JsonContext at(std::size_t index) const;

    /// Throws InputError(file, "where: problem").
    [[noreturn]] void fail(const std::string& problem) const;

    /// value itself, which must be an object (or an array).
    const nlohmann::json& object(const nlohmann::json& value) const;
    const nlohmann::json& array(const nlohmann::json& value) const;
    /// The member key of object; fails when it is missing (or null).
    const nlohmann::json& required(const nlohmann::json& object, const char* key) const;

    std::string string(const nlohmann::json& object, const char* key) const;
    std::string string(const nlohmann::json& object, const char* key,
                       const std::string& fallback) const;
    bool boolean(const nlohmann::json& object, const char* key, bool fallback) const;
    std::uint32_t id(const nlohmann::json& value) const;
    std::size_t count(const nlohmann::json& object, const char* key, std::size_t fallback) const;
    double number(const nlohmann::json& value) const;
    /// value as text (a JSON string).
    std::string text(const nlohmann::json& value) const;

private:
    std::filesystem::path file_;
    std::string where_;
};

/// The largest id a vocabulary may use: ids are int32 in the engine.
inline constexpr std::uint32_t kMaxTokenId = 0x7FFFFFFF;

}  // namespace bert::tokenizer_json
