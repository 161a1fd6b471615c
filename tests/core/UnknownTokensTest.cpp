// Issue 27, points 3 and 10 (engine side): the share of unknown tokens, and files that are not
// text called so.
#include <gtest/gtest.h>

#include "Error.h"
#include "data/TableReader.h"
#include "data/UnknownTokens.h"
#include "support/TestSupport.h"
#include "tokenizer/WordPieceTokenizer.h"

namespace bert {
namespace {

TEST(UnknownTokens, TheShareCountsTheTextsTokensNotTheTemplates) {
    const WordPieceTokenizer tokenizer(
        {"[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "good", "film", "这"}, {});
    const std::vector<std::int32_t> special = {tokenizer.clsId(), tokenizer.sepId(),
                                               tokenizer.padId()};
    UnknownTokenShare share;
    share.add(tokenizer.encode("good film").inputIds, tokenizer.unkId(), special);
    EXPECT_EQ(share.tokens, 2U);
    EXPECT_EQ(share.unknown, 0U);
    EXPECT_FALSE(share.warns());
    // Chinese under a vocabulary that knows one of its characters: 3 of 4 unknown.
    share.add(tokenizer.encode("这部电影").inputIds, tokenizer.unkId(), special);
    EXPECT_EQ(share.tokens, 6U);
    EXPECT_EQ(share.unknown, 3U);
    EXPECT_DOUBLE_EQ(share.share(), 0.5);
    EXPECT_TRUE(share.warns());
    EXPECT_DOUBLE_EQ(UnknownTokenShare{}.share(), 0.0);
}

TEST(UnknownTokens, ABinaryFileIsNotReadAsATable) {
    test::TempDir dir;
    test::writeFile(dir / "image.csv", std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16));
    try {
        readTable(dir / "image.csv");
        FAIL() << "a PNG was read as a table";
    } catch (const InputError& error) {
        EXPECT_EQ(error.problem(), "is not a text file (binary content at byte 9)");
    }
    // Control characters without a NUL, more than one byte in a hundred.
    std::string controls = "text,label\n";
    for (int i = 0; i < 50; ++i) {
        controls += "a\x01\x02\x03,b\n";
    }
    test::writeFile(dir / "controls.csv", controls);
    EXPECT_THROW(
        {
            try {
                readTable(dir / "controls.csv");
            } catch (const InputError& error) {
                EXPECT_EQ(error.problem(), "is not a text file (binary content at byte 13)");
                throw;
            }
        },
        InputError);
    // UTF-16 is text, in an encoding to convert.
    test::writeFile(dir / "wide.csv", std::string("\xFF\xFEt\0e\0", 6));
    try {
        readTable(dir / "wide.csv");
        FAIL();
    } catch (const InputError& error) {
        EXPECT_EQ(error.problem(), "is UTF-16 text; save it as UTF-8");
    }
    // A few control characters in real text (a form feed, an escape, one stray byte) are fine.
    test::writeFile(dir / "fine.csv", "text,label\n\"page\fbreak \x1b[1m\x07\",a\n");
    EXPECT_EQ(readTable(dir / "fine.csv").rows.size(), 1U);
}

}  // namespace
}  // namespace bert
