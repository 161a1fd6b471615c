// How `predict` and Try it cut a typed text into the words a tagging model reads
// (task/token/TextWords.h), and where each word sits in the text, so that entities are placed
// in the text as it was typed.
#include <gtest/gtest.h>

#include "data/TaggedReader.h"
#include "data/WordSplit.h"
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

// CLUENER's span JSON is tagged per character; predict cuts a run trained on it the same way
// (data/WordSplit.h), Latin letters too: "NBA" was one word in predict and three in training.
TEST(TextWords, ARunTrainedPerCharacterIsCutPerCharacterAsItsDataWas) {
    const std::string line =
        R"({"text": "我在NBA看球", "label": {"organization": {"NBA": [[2, 4]]}}})";
    const auto file = parseTagged(line + "\n", TaggedFormat::SpanJson, "dev.json");
    ASSERT_EQ(file.sentences.size(), 1U);
    const auto& trained = file.sentences[0];
    const auto typed = wordsOfText("我在NBA看球", WordSplit::Characters);
    EXPECT_EQ(typed.words, trained.words);
    EXPECT_EQ(typed.words, (std::vector<std::string>{"我", "在", "N", "B", "A", "看", "球"}));
    ASSERT_EQ(typed.wordSpans.size(), trained.wordSpans.size());
    for (std::size_t i = 0; i < typed.wordSpans.size(); ++i) {
        EXPECT_EQ(typed.wordSpans[i].charIndex, trained.wordSpans[i].charIndex);
        EXPECT_EQ(typed.wordSpans[i].byteBegin, trained.wordSpans[i].byteBegin);
    }
    // Data of words between spaces is cut that way.
    EXPECT_EQ(wordsOfText("我在NBA看球").words,
              (std::vector<std::string>{"我", "在", "NBA", "看", "球"}));
}

// A combining mark stays with its character, in both splittings and in the data: "e" + U+0301
// is one character of two code points, so an entity's end offset (in code points, as CLUENER
// counts) covers the mark, and no word is a lone mark (which gives no token once accents are
// stripped, and split entities in predict).
TEST(TextWords, ACombiningMarkStaysWithItsCharacter) {
    const std::string text = "Jose\u0301 e\u0301t\u00e9";
    const auto words = wordsOfText(text);
    ASSERT_EQ(words.words, (std::vector<std::string>{"Jose\u0301", "e\u0301t\u00e9"}));
    EXPECT_EQ(words.wordSpans[1].charIndex, 6U);
    const auto entities = entitiesInText(words, {{"PER", 0, 1}});
    ASSERT_EQ(entities.size(), 1U);
    EXPECT_EQ(entities[0].charBegin, 0U);
    EXPECT_EQ(entities[0].charEnd, 4U);  // J o s e U+0301: the mark included
    const auto characters = wordsOfText(text, WordSplit::Characters);
    EXPECT_EQ(characters.words,
              (std::vector<std::string>{"J", "o", "s", "e\u0301", "e\u0301", "t", "\u00e9"}));
    std::vector<std::size_t> offsets;
    for (const auto& span : characters.wordSpans) {
        offsets.push_back(span.charIndex);
    }
    EXPECT_EQ(offsets, (std::vector<std::size_t>{0, 1, 2, 3, 6, 8, 9}));
    // The span reader cuts the same characters and tags the mark with its letter.
    const std::string line =
        R"({"text": "Jose\u0301 x", "label": {"PER": {"Jose\u0301": [[0, 4]]}}})";
    const auto file = parseTagged(line + "\n", TaggedFormat::SpanJson, "dev.json");
    ASSERT_EQ(file.sentences.size(), 1U);
    EXPECT_EQ(file.sentences[0].words, (std::vector<std::string>{"J", "o", "s", "e\u0301", "x"}));
    EXPECT_EQ(file.sentences[0].tags,
              (std::vector<std::string>{"B-PER", "I-PER", "I-PER", "I-PER", "O"}));
    const auto placed = entitiesInText(file.sentences[0], {{"PER", 0, 4}});
    ASSERT_EQ(placed.size(), 1U);
    EXPECT_EQ(placed[0].charEnd, 4U);
}

}  // namespace
}  // namespace bert
