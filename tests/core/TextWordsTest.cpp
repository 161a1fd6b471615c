// How `predict` and Try it cut a typed text into the words a tagging model reads
// (task/token/TextWords.h), and where each word sits in the text, so that entities are placed
// in the text as it was typed.
#include <gtest/gtest.h>

#include "task/token/EntityText.h"
#include "task/token/TextWords.h"

namespace bert {
namespace {

TEST(TextWords, WordsAreRunsBetweenSpacesWithTheirBytesAndCharacters) {
    const std::string text = "  Zoë met\tAnn\nin  Köln ";
    const auto sentence = wordsOfText(text);
    EXPECT_EQ(sentence.text, text);
    ASSERT_EQ(sentence.words, (std::vector<std::string>{"Zoë", "met", "Ann", "in", "Köln"}));
    EXPECT_EQ(sentence.tags, std::vector<std::string>(5, "O"));
    ASSERT_EQ(sentence.wordSpans.size(), 5U);
    for (std::size_t i = 0; i < 5; ++i) {
        const auto& span = sentence.wordSpans[i];
        EXPECT_EQ(text.substr(span.byteBegin, span.byteEnd - span.byteBegin), sentence.words[i]);
    }
    // Code points, not bytes: "ë" is two bytes and one character.
    EXPECT_EQ(sentence.wordSpans[0].charIndex, 2U);
    EXPECT_EQ(sentence.wordSpans[1].charIndex, 6U);
    EXPECT_EQ(sentence.wordSpans[4].charIndex, 18U);
}

TEST(TextWords, EachChineseCharacterIsAWordAndIdeographicSpacesSeparate) {
    const std::string text = "叶老桂　在BJ工作";
    const auto sentence = wordsOfText(text);
    EXPECT_EQ(sentence.words, (std::vector<std::string>{"叶", "老", "桂", "在", "BJ", "工", "作"}));
    std::vector<std::size_t> chars;
    for (const auto& span : sentence.wordSpans) {
        chars.push_back(span.charIndex);
    }
    EXPECT_EQ(chars, (std::vector<std::size_t>{0, 1, 2, 4, 5, 7, 8}));
}

TEST(TextWords, EntitiesArePlacedInTheTextAsTyped) {
    const auto sentence = wordsOfText("see  New   York today");
    const auto entities = entitiesInText(sentence, {{"LOC", 1, 3}});
    ASSERT_EQ(entities.size(), 1U);
    EXPECT_EQ(entities[0].text, "New   York");  // the spaces typed, not one
    EXPECT_EQ(entities[0].charBegin, 5U);
    EXPECT_EQ(entities[0].charEnd, 14U);  // included, as CLUENER counts
}

TEST(TextWords, AnEmptyOrBlankTextHasNoWords) {
    EXPECT_TRUE(wordsOfText("").words.empty());
    EXPECT_TRUE(wordsOfText(" \t\n").words.empty());
}

}  // namespace
}  // namespace bert
