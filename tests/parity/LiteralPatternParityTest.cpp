// tokenizer.json files whose Replace or Split pattern is a {"String": ...} literal (Gemma's
// Replace of " " by "▁", mmBERT's) against the `tokenizers` library: they were refused with
// PCRE2's "invalid option bits with PCRE2_LITERAL", which `tokenizers` loads fine. A literal
// matches literally: a Split at "." does not split at every character.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/TestSupport.h"
#include "tokenizer/Tokenizer.h"

namespace bert {
namespace {

TEST(LiteralPatternParity, StringPatternsLoadAndEncodeAsTokenizers) {
    if (const auto reason = test::referenceUnavailable(); !reason.empty()) {
        GTEST_SKIP() << reason;
    }
    test::TempDir dir;
    const auto log = dir / "build.log";
    ASSERT_EQ(test::runPythonScript("tests/parity/literal_patterns.py", {dir.path().string()}, log),
              0)
        << test::readFile(log);
    const auto references = nlohmann::json::parse(test::readFile(dir / "references.json"));
    const auto texts = references["texts"].get<std::vector<std::string>>();
    for (const auto& [name, expected] : references["ids"].items()) {
        SCOPED_TRACE(name);
        std::shared_ptr<const Tokenizer> tokenizer;
        ASSERT_NO_THROW(tokenizer = loadTokenizer(dir / name));
        for (std::size_t i = 0; i < texts.size(); ++i) {
            EXPECT_EQ(tokenizer->encode(texts[i]).inputIds,
                      expected[i].get<std::vector<std::int32_t>>())
                << "text: " << texts[i];
        }
    }
}

}  // namespace
}  // namespace bert
