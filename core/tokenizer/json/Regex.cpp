#include "tokenizer/json/Regex.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdexcept>

#include "tokenizer/UnicodeProperties.h"

namespace bert::tokenizer_json {

namespace {

// Oniguruma's \s: the White_Space property. PCRE2's \s (with PCRE2_UCP) also matches U+180E.
constexpr const char* kWhiteSpaceClass =
    "\\t-\\r\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}"
    "\\x{205F}\\x{3000}";

// Rewrites the escapes whose meaning differs between Oniguruma (Ruby syntax) and PCRE2: \s and \h,
// and \p{L}, \p{N}, which gain the letters and numbers of the reference's newer Unicode.
std::string translate(std::string_view pattern) {
    std::string out;
    out.reserve(pattern.size() + 16);
    bool inClass = false;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            const char next = pattern[++i];
            if (next == 's') {
                out += inClass ? std::string(kWhiteSpaceClass)
                               : "[" + std::string(kWhiteSpaceClass) + "]";
            } else if (next == 'S' && !inClass) {
                out += "[^" + std::string(kWhiteSpaceClass) + "]";
            } else if ((next == 'p' || next == 'P') &&
                       (pattern.substr(i + 1, 3) == "{L}" || pattern.substr(i + 1, 3) == "{N}") &&
                       !(next == 'P' && inClass)) {
                const bool letters = pattern[i + 2] == 'L';
                const std::string members = std::string("\\p{") + (letters ? "L" : "N") + "}" +
                                            unicode::regexExtraClassMembers(letters);
                out += inClass ? members : (next == 'P' ? "[^" : "[") + members + "]";
                i += 3;
            } else if (next == 'h') {
                out += inClass ? "0-9a-fA-F" : "[0-9a-fA-F]";
            } else if (next == 'H' && !inClass) {
                out += "[^0-9a-fA-F]";
            } else {
                out += c;
                out += next;
            }
            continue;
        }
        if (!inClass && c == '[') {
            inClass = true;
            out += c;
            // A ']' right after '[' or '[^' is a literal member, not the end.
            if (i + 1 < pattern.size() && pattern[i + 1] == '^') {
                out += pattern[++i];
            }
            if (i + 1 < pattern.size() && pattern[i + 1] == ']') {
                out += pattern[++i];
            }
            continue;
        }
        if (inClass && c == ']') {
            inClass = false;
        }
        out += c;
    }
    return out;
}

// A cap on backtracking, so that a pathological pattern from a file gives an error, not a hang.
constexpr std::uint32_t kMatchLimit = 10'000'000;

}  // namespace

struct Regex::Compiled {
    pcre2_code* code = nullptr;
    pcre2_match_context* context = nullptr;
    ~Compiled() {
        pcre2_match_context_free(context);
        pcre2_code_free(code);
    }
};

namespace {

std::shared_ptr<Regex::Compiled> compile(const std::string& pattern, std::uint32_t options) {
    int error = 0;
    PCRE2_SIZE offset = 0;
    auto compiled = std::make_shared<Regex::Compiled>();
    // PCRE2 refuses PCRE2_UCP beside PCRE2_LITERAL ("invalid option bits"): every
    // {"String": ...} pattern (Gemma's and mmBERT's Replace " " by "▁") was refused.
    const std::uint32_t ucp = (options & PCRE2_LITERAL) != 0 ? 0 : PCRE2_UCP;
    compiled->code = pcre2_compile(reinterpret_cast<PCRE2_SPTR>(pattern.data()), pattern.size(),
                                   options | PCRE2_UTF | ucp, &error, &offset, nullptr);
    if (compiled->code == nullptr) {
        PCRE2_UCHAR message[256];
        pcre2_get_error_message(error, message, sizeof(message));
        throw std::invalid_argument(std::string(reinterpret_cast<const char*>(message)) +
                                    " at offset " + std::to_string(offset));
    }
    pcre2_jit_compile(compiled->code, PCRE2_JIT_COMPLETE);  // the interpreter where JIT fails
    compiled->context = pcre2_match_context_create(nullptr);
    pcre2_set_match_limit(compiled->context, kMatchLimit);
    return compiled;
}

}  // namespace

Regex Regex::fromPattern(std::string_view pattern) {
    return Regex(compile(translate(pattern), 0));
}

Regex Regex::fromLiteral(std::string_view text) {
    return Regex(compile(std::string(text), PCRE2_LITERAL));
}

std::vector<std::pair<std::size_t, std::size_t>> Regex::findAll(std::string_view text) const {
    std::vector<std::pair<std::size_t, std::size_t>> matches;
    std::unique_ptr<pcre2_match_data, decltype(&pcre2_match_data_free)> data(
        pcre2_match_data_create_from_pattern(compiled_->code, nullptr), &pcre2_match_data_free);
    const auto* subject = reinterpret_cast<PCRE2_SPTR>(text.data());
    std::size_t searchFrom = 0;
    std::size_t lastMatchEnd = std::string_view::npos;
    while (searchFrom <= text.size()) {
        const int rc = pcre2_match(compiled_->code, subject, text.size(), searchFrom,
                                   PCRE2_NO_UTF_CHECK, data.get(), compiled_->context);
        if (rc == PCRE2_ERROR_NOMATCH) {
            break;
        }
        if (rc < 0) {
            PCRE2_UCHAR message[256];
            pcre2_get_error_message(rc, message, sizeof(message));
            throw std::runtime_error(reinterpret_cast<const char*>(message));
        }
        const PCRE2_SIZE* ovector = pcre2_get_ovector_pointer(data.get());
        const std::size_t start = ovector[0];
        const std::size_t end = ovector[1];
        if (start == end && end == lastMatchEnd) {
            // Oniguruma's iterator: no empty match right after the previous one; step one
            // code point on.
            if (searchFrom >= text.size()) {
                break;
            }
            ++searchFrom;
            while (searchFrom < text.size() &&
                   (static_cast<unsigned char>(text[searchFrom]) & 0xC0U) == 0x80U) {
                ++searchFrom;
            }
            continue;
        }
        matches.emplace_back(start, end);
        lastMatchEnd = end;
        searchFrom = end;
    }
    return matches;
}

}  // namespace bert::tokenizer_json
