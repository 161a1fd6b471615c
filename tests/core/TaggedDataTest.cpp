// Token-classification data (core/data/TaggedReader.h, core/task/token/TagScheme.h): the three layouts
// users bring (CoNLL, JSONL tokens/tags, CLUENER spans) read as they are written, and every kind
// of bad input refused with the file, the line and the problem.
#include <gtest/gtest.h>

#include "Error.h"
#include "data/TaggedReader.h"
#include "support/TestSupport.h"
#include "task/token/EntityMetrics.h"
#include "task/token/EntityText.h"
#include "task/token/TagScheme.h"

namespace bert {
namespace {

using Strings = std::vector<std::string>;

// The message of the InputError that f throws ("" when it throws none).
template <typename F>
std::string inputErrorOf(F&& f) {
    try {
        f();
    } catch (const InputError& error) {
        return error.what();
    }
    return {};
}

TEST(TaggedReader, ReadsCoNLL2003WithItsMiddleColumnsAndDocumentLines) {
    const std::string text =
        "-DOCSTART- -X- -X- O\n"
        "\n"
        "EU NNP B-NP B-ORG\n"
        "rejects VBZ B-VP O\r\n"
        "German JJ B-NP B-MISC\n"
        "\n"
        "\n"
        "Peter\tB-PER\n"
        "Blackburn\tI-PER\n";
    const auto file = parseTagged(text, TaggedFormat::Conll, "train.conll");
    ASSERT_EQ(file.sentences.size(), 2U);
    EXPECT_EQ(file.sentences[0].words, (Strings{"EU", "rejects", "German"}));
    EXPECT_EQ(file.sentences[0].tags, (Strings{"B-ORG", "O", "B-MISC"}));
    EXPECT_EQ(file.sentences[0].line, 3U);
    EXPECT_EQ(file.sentences[0].lineOf(2), 5U);
    EXPECT_EQ(file.sentences[1].words, (Strings{"Peter", "Blackburn"}));
    EXPECT_EQ(file.sentences[1].line, 8U);
}

TEST(TaggedReader, AWordWithoutATagNamesItsLine) {
    const auto message =
        inputErrorOf([] { parseTagged("EU B-ORG\nrejects\n", TaggedFormat::Conll, "bad.conll"); });
    EXPECT_NE(message.find("bad.conll: line 2: the word \"rejects\" has no tag"), std::string::npos)
        << message;
}

TEST(TaggedReader, ReadsJsonlTokensAndTagsOrNerTagNames) {
    const std::string text =
        "{\"tokens\": [\"John\", \"lives\", \"in\", \"Paris\"], \"tags\": [\"B-PER\", \"O\", "
        "\"O\", "
        "\"B-LOC\"]}\n"
        "\n"
        "{\"tokens\": [\"Hi\"], \"ner_tags\": [\"O\"]}\n";
    const auto file = parseTagged(text, TaggedFormat::TokensJsonl, "a.jsonl");
    ASSERT_EQ(file.sentences.size(), 2U);
    EXPECT_EQ(file.sentences[0].tags, (Strings{"B-PER", "O", "O", "B-LOC"}));
    EXPECT_EQ(file.sentences[1].line, 3U);
    EXPECT_EQ(file.sentences[1].lineOf(0), 3U);
}

TEST(TaggedReader, JsonlProblemsNameTheLine) {
    const auto mismatch = inputErrorOf([] {
        parseTagged(
            "{\"tokens\": [\"a\"], \"tags\": [\"O\"]}\n{\"tokens\": [\"a\", \"b\"], "
            "\"tags\": [\"O\"]}\n",
            TaggedFormat::TokensJsonl, "a.jsonl");
    });
    EXPECT_NE(mismatch.find("line 2: 2 tokens but 1 tags"), std::string::npos) << mismatch;
    const auto invalid = inputErrorOf([] {
        parseTagged("{\"tokens\": [\"a\"], \"tags\": [\"O\"]\n", TaggedFormat::TokensJsonl,
                    "a.jsonl");
    });
    EXPECT_NE(invalid.find("line 1: is not valid JSON"), std::string::npos) << invalid;
    const auto numbers = inputErrorOf([] {
        parseTagged("{\"tokens\": [\"a\"], \"ner_tags\": [3]}\n", TaggedFormat::TokensJsonl,
                    "a.jsonl");
    });
    EXPECT_NE(numbers.find("numbered tags need their names"), std::string::npos) << numbers;
}

TEST(TaggedReader, ClueNerSpansBecomeCharacterBioWithOffsetsIntoTheText) {
    // CLUENER's layout: offsets in characters, the end included; a space is no word.
    const std::string line =
        R"({"text": "浙商银行企业信贷部 叶老桂博士", "label": {"name": {"叶老桂": [[10, 12]]}, )"
        R"("company": {"浙商银行": [[0, 3]]}}})";
    const auto file = parseTagged(line + "\n", TaggedFormat::SpanJson, "dev.json");
    ASSERT_EQ(file.sentences.size(), 1U);
    const auto& sentence = file.sentences[0];
    EXPECT_EQ(sentence.words.size(), 14U);  // 15 characters less the space
    EXPECT_EQ(sentence.words[0], "浙");
    EXPECT_EQ(sentence.tags[0], "B-company");
    EXPECT_EQ(sentence.tags[3], "I-company");
    EXPECT_EQ(sentence.tags[4], "O");
    EXPECT_EQ(sentence.words[9], "叶");
    EXPECT_EQ(sentence.tags[9], "B-name");
    EXPECT_EQ(sentence.tags[11], "I-name");
    EXPECT_EQ(sentence.tags[12], "O");
    EXPECT_EQ(sentence.wordSpans[9].charIndex, 10U);
    EXPECT_EQ(
        sentence.text.substr(sentence.wordSpans[9].byteBegin,
                             sentence.wordSpans[11].byteEnd - sentence.wordSpans[9].byteBegin),
        "叶老桂");
    EXPECT_EQ(taggedFormatOf("dev.json", line), TaggedFormat::SpanJson);
    EXPECT_EQ(taggedFormatOf("a.jsonl", R"({"tokens": ["a"], "tags": ["O"]})"),
              TaggedFormat::TokensJsonl);
}

TEST(TaggedReader, EntitiesGoBackToTheirSpansInTheOriginalText) {
    // What predict writes: the tags read back as CLUENER's offsets into the same text.
    const std::string line =
        R"({"text": "我在 北京大学读书，住在上海。", "label": {"organization": {"北京大学": [[3, 6]]}, )"
        R"("address": {"上海": [[12, 13]]}}})";
    const auto file = parseTagged(line, TaggedFormat::SpanJson, "dev.json");
    const auto& sentence = file.sentences.at(0);
    const auto placed = entitiesInText(sentence, entitiesOf(sentence.tags, EntityMode::Conlleval));
    ASSERT_EQ(placed.size(), 2U);
    EXPECT_EQ(placed[0].type, "organization");
    EXPECT_EQ(placed[0].text, "北京大学");
    EXPECT_EQ(placed[0].charBegin, 3U);
    EXPECT_EQ(placed[0].charEnd, 6U);
    EXPECT_EQ(sentence.text.substr(placed[1].byteBegin, placed[1].byteEnd - placed[1].byteBegin),
              "上海");
    EXPECT_EQ(placed[1].charBegin, 12U);
    EXPECT_EQ(placed[1].charEnd, 13U);
    // CoNLL keeps no text: the words joined by spaces stand for it.
    const auto conll =
        parseTagged("New B-LOC\nYork I-LOC\nrocks O\n", TaggedFormat::Conll, "a.conll");
    EXPECT_EQ(sentenceText(conll.sentences[0]), "New York rocks");
    const auto york = entitiesInText(conll.sentences[0], {{"LOC", 0, 2}, {"X", 2, 9}});
    ASSERT_EQ(york.size(), 2U);
    EXPECT_EQ(york[0].text, "New York");
    EXPECT_EQ(york[0].charEnd, 7U);
    EXPECT_EQ(york[1].text, "rocks");  // clipped to the sentence's words
}

TEST(TaggedReader, BadSpansAreRefusedWithTheirLine) {
    const auto outside = inputErrorOf([] {
        parseTagged("{\"text\": \"abc\", \"label\": {\"x\": {\"c\": [[2, 3]]}}}\n",
                    TaggedFormat::SpanJson, "s.json");
    });
    EXPECT_NE(outside.find("line 1: entity \"c\" (x): the span [2,3] is outside the text (3 "
                           "characters"),
              std::string::npos)
        << outside;
    const auto mismatch = inputErrorOf([] {
        parseTagged("{\"text\": \"北京欢迎你\", \"label\": {\"loc\": {\"上海\": [[0, 1]]}}}\n",
                    TaggedFormat::SpanJson, "s.json");
    });
    EXPECT_NE(mismatch.find("entity \"上海\" (loc) does not match the text at [0,1], which reads "
                            "\"北京\""),
              std::string::npos)
        << mismatch;
    const auto overlap = inputErrorOf([] {
        parseTagged(
            "\n{\"text\": \"abcd\", \"label\": {\"x\": {\"abc\": [[0, 2]]}, \"y\": "
            "{\"cd\": [[2, 3]]}}}\n",
            TaggedFormat::SpanJson, "s.json");
    });
    const auto type = inputErrorOf([] {
        parseTagged("{\"text\": \"ab\", \"label\": {\"game name\": {\"a\": [[0, 0]]}}}\n",
                    TaggedFormat::SpanJson, "s.json");
    });
    EXPECT_NE(type.find("line 1: the entity type \"game name\" is empty or holds a space"),
              std::string::npos)
        << type;
    EXPECT_NE(overlap.find("line 2: entity \"cd\" (y) at [2,3] overlaps the x entity at [0, 2]"),
              std::string::npos)
        << overlap;
}

TEST(TaggedReader, FilesAreReadByExtensionAndAnEmptyOneIsRefused) {
    test::TempDir dir;
    test::writeFile(dir / "a.bio", "\xEF\xBB\xBFOne O\nTwo B-X\n");
    const auto file = readTaggedFile(dir / "a.bio");
    EXPECT_EQ(file.format, TaggedFormat::Conll);
    EXPECT_EQ(file.sentences[0].words, (Strings{"One", "Two"}));
    test::writeFile(dir / "empty.conll", "\n\n-DOCSTART- O\n");
    EXPECT_NE(
        inputErrorOf([&] { readTaggedFile(dir / "empty.conll"); }).find("holds no tagged sentence"),
        std::string::npos);
    EXPECT_NE(inputErrorOf([&] { readTaggedFile(dir / "a.csv"); }).find("a.csv"),
              std::string::npos);
}

TaggedSentence conllSentence(Strings tags, std::size_t line = 1) {
    TaggedSentence sentence;
    sentence.words.assign(tags.size(), "w");
    sentence.tags = std::move(tags);
    sentence.line = line;
    sentence.wordPerLine = true;
    return sentence;
}

TEST(TagScheme, BioIsCheckedAndSummedUp) {
    const auto summary = checkTags({conllSentence({"B-PER", "I-PER", "O", "B-LOC"}),
                                    conllSentence({"B-LOC", "B-LOC", "I-LOC"}, 6)},
                                   "a.conll");
    EXPECT_EQ(summary.scheme, TagScheme::Bio);
    EXPECT_EQ(summary.types, (Strings{"LOC", "PER"}));
    EXPECT_EQ(summary.labels, (Strings{"O", "B-LOC", "I-LOC", "B-PER", "I-PER"}));
    EXPECT_EQ(summary.entityCounts.at("LOC"), 3U);
    EXPECT_EQ(summary.entityCounts.at("PER"), 1U);
    EXPECT_EQ(summary.tagCounts.at("O"), 1U);
    EXPECT_EQ(summary.words, 7U);
    EXPECT_EQ(summary.sentences, 2U);
}

TEST(TagScheme, AnIWithoutItsBNamesTheLine) {
    const auto message = inputErrorOf([] {
        checkTags({conllSentence({"O"}), conllSentence({"B-PER", "O", "I-PER"}, 3)}, "a.conll");
    });
    EXPECT_NE(message.find("a.conll: line 5: \"I-PER\" follows O: an I- without its B-PER"),
              std::string::npos)
        << message;
    const auto typeChange = inputErrorOf([] {
        checkTags({conllSentence({"B-PER", "I-LOC"}, 10)}, "a.conll");
    });
    EXPECT_NE(typeChange.find("line 11: \"I-LOC\" follows B-PER"), std::string::npos) << typeChange;
}

TEST(TagScheme, UnknownTagsAreRefused) {
    for (const std::string tag : {"PER", "B_PER", "b-per", "B-", "U-PER", "", "B-PER ", "I-A\tB"}) {
        const auto message = inputErrorOf([&] {
            checkTags({conllSentence({"O", tag}, 4)}, "a.conll");
        });
        EXPECT_NE(message.find("line 5: the tag \"" + tag + "\" is neither O nor"),
                  std::string::npos)
            << tag << ": " << message;
    }
}

TEST(TagScheme, IobesIsDetectedAndMixingWithBioRefused) {
    const auto summary =
        checkTags({conllSentence({"S-PER", "O", "B-ORG", "I-ORG", "E-ORG"})}, "a.conll");
    EXPECT_EQ(summary.scheme, TagScheme::Iobes);
    EXPECT_EQ(summary.labels, (Strings{"O", "B-ORG", "I-ORG", "E-ORG", "S-ORG", "B-PER", "I-PER",
                                       "E-PER", "S-PER"}));
    EXPECT_EQ(summary.entityCounts.at("ORG"), 1U);
    // A BIO sentence in an IOBES file: the B- is never closed.
    const auto message = inputErrorOf([] {
        checkTags({conllSentence({"S-PER", "O"}), conllSentence({"B-ORG", "O"}, 4)}, "a.conll");
    });
    EXPECT_NE(message.find("line 4: B-ORG is not closed by E-ORG"), std::string::npos) << message;
    EXPECT_NE(message.find("E- and S- tags from line 1"), std::string::npos) << message;
    const auto atEnd = inputErrorOf([] {
        checkTags({conllSentence({"S-PER"}), conllSentence({"B-ORG", "I-ORG"}, 3)}, "a.conll");
    });
    EXPECT_NE(atEnd.find("line 4: I-ORG ends the sentence without E-ORG"), std::string::npos)
        << atEnd;
    const auto eAlone = inputErrorOf([] { checkTags({conllSentence({"O", "E-PER"})}, "a.conll"); });
    EXPECT_NE(eAlone.find("line 2: \"E-PER\" follows O: an E- without its B-PER"),
              std::string::npos)
        << eAlone;
}

TEST(TagScheme, JsonlSentencesNameTheirOwnLine) {
    TaggedSentence sentence;
    sentence.words = {"a", "b"};
    sentence.tags = {"O", "I-X"};
    sentence.line = 7;
    const auto message = inputErrorOf([&] { checkTags({sentence}, "a.jsonl"); });
    EXPECT_NE(message.find("a.jsonl: line 7:"), std::string::npos) << message;
}

TEST(TagScheme, Iob1ConvertsToBio) {
    EXPECT_EQ(toBio({"I-ORG", "O", "I-PER", "I-PER", "B-PER", "I-LOC", "I-PER"}),
              (Strings{"B-ORG", "O", "B-PER", "I-PER", "B-PER", "B-LOC", "B-PER"}));
    const Strings bio = {"B-PER", "I-PER", "O", "B-LOC"};
    EXPECT_EQ(toBio(bio), bio);
    EXPECT_EQ(labelsFor(TagScheme::Bio, {"b", "a", "b"}),
              (Strings{"O", "B-a", "I-a", "B-b", "I-b"}));
}

}  // namespace
}  // namespace bert
