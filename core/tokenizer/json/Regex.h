#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bert::tokenizer_json {

/// A compiled Unicode regular expression of tokenizer.json (the byte-level split, Split and
/// Replace patterns), with PCRE2 (JIT-compiled where the platform allows) standing in for the
/// Oniguruma that the `tokenizers` library uses. The two agree on the syntax these files use
/// (\p{L}, \p{N}, lookahead, classes); where their defaults differ the pattern is rewritten:
/// Oniguruma's \s is White_Space (PCRE2's adds U+180E) and its \h is a hex digit.
/// Immutable and safe to use from several threads at once.
class Regex {
public:
    /// Throws std::invalid_argument with PCRE2's message for a pattern it cannot compile.
    static Regex fromPattern(std::string_view pattern);
    /// A pattern matching text literally (tokenizer.json's {"String": ...} patterns).
    static Regex fromLiteral(std::string_view text);

    /// [start, end) byte ranges of the matches in valid UTF-8 text, left to right, as
    /// Oniguruma's find_iter gives them: after an empty match the search moves on one code
    /// point, and an empty match right where the previous match ended is skipped. Throws
    /// std::runtime_error where PCRE2 gives up (its backtracking limit), never hangs.
    std::vector<std::pair<std::size_t, std::size_t>> findAll(std::string_view text) const;

    struct Compiled;  ///< PCRE2's compiled pattern and match limits (Regex.cpp)

private:
    explicit Regex(std::shared_ptr<const Compiled> compiled) : compiled_(std::move(compiled)) {}
    std::shared_ptr<const Compiled> compiled_;
};

}  // namespace bert::tokenizer_json
