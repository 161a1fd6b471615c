#include <gtest/gtest.h>

#include "text/Utf8.h"

namespace bert {
namespace {

TEST(Utf8, SanitizeReplacesEachInvalidByteAndCountsIt) {
    std::size_t replaced = 0;
    // Lone continuation, overlong "/", surrogate, truncated 3-byte sequence; one real U+FFFD.
    const std::string input = "a\x80 b\xC0\xAF c\xED\xA0\x80 d\xEF\xBF\xBD e\xE2\x82";
    const auto clean = utf8::sanitize(input, &replaced);
    EXPECT_EQ(replaced, 1U + 2U + 3U + 2U);
    // The genuine replacement character in the input is not counted as damage.
    EXPECT_EQ(utf8::length(clean), utf8::length("a\uFFFD b\uFFFD\uFFFD c\uFFFD\uFFFD\uFFFD "
                                                "d\uFFFD e\uFFFD\uFFFD"));
}

TEST(Utf8, DecodeRoundTripsEveryScalarValue) {
    for (char32_t cp = 0; cp <= 0x10FFFF; cp += (cp < 0x3000 ? 1 : 97)) {
        if (cp >= 0xD800 && cp <= 0xDFFF) {
            continue;
        }
        std::string encoded;
        utf8::append(encoded, cp);
        std::size_t pos = 0;
        ASSERT_EQ(utf8::decode(encoded, pos), cp);
        ASSERT_EQ(pos, encoded.size());
    }
}

}  // namespace
}  // namespace bert
