// Issue 10: nothing a user supplies crashes or hangs the engine. One test per class of bad file:
// JSON nested deep enough to overflow the stack, files that are not regular files (a FIFO would
// block the open forever), sizes in config.json that no machine could allocate, and tokenizer
// files whose fields have the wrong type. Each is refused with InputError naming the file.
#include <string>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include "Error.h"
#include "data/Dataset.h"
#include "data/TableReader.h"
#include "io/Json.h"
#include "model/EncoderConfig.h"
#include "support/TestSupport.h"
#include "tokenizer/WordPieceTokenizer.h"
#include "train/TrainingConfig.h"

namespace bert {
namespace {

// Expects fn to throw InputError about file whose message contains fragment.
template <typename Fn>
void expectRefused(Fn&& fn, const std::filesystem::path& file, const std::string& fragment) {
    try {
        fn();
        FAIL() << "accepted " << file;
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), file) << error.what();
        EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos) << error.what();
    }
}

std::string nested(std::size_t depth) {
    return std::string(depth, '[') + std::string(depth, ']');
}

TEST(UserFiles, DeeplyNestedJsonIsRefusedWhereverItIsRead) {
    test::TempDir dir;
    const auto deep = nested(200000);  // once a stack overflow (SIGSEGV) when copied or printed
    std::string problem;
    const auto value = parseJson(deep, problem);
    EXPECT_TRUE(value.is_discarded());
    EXPECT_NE(problem.find("deeper than"), std::string::npos) << problem;
    EXPECT_TRUE(parseJson(nested(kMaxJsonDepth), problem).is_array()) << problem;

    test::writeFile(dir / "config.json", R"({"model_type": "bert", "extra": )" + deep + "}");
    expectRefused([&] { EncoderConfig::fromFile(dir / "config.json"); }, dir / "config.json",
                  "deeper than");

    std::filesystem::create_directories(dir / "model");
    test::writeFile(dir / "model" / "tokenizer.json", R"({"model": )" + deep + "}");
    expectRefused([&] { WordPieceTokenizer::fromModelFolder(dir / "model"); },
                  dir / "model" / "tokenizer.json", "deeper than");

    test::writeFile(dir / "data.jsonl", R"({"text": "fine", "label": "a"})"
                                        "\n"
                                        R"({"text": )" +
                                            deep +
                                            R"(, "label": "b"})"
                                            "\n");
    expectRefused([&] { readTable(dir / "data.jsonl"); }, dir / "data.jsonl", "line 2 nests");
}

TEST(UserFiles, OnlyRegularFilesAreRead) {
    test::TempDir dir;
    ASSERT_EQ(::mkfifo((dir / "fifo.csv").c_str(), 0600), 0);
    expectRefused([&] { readTable(dir / "fifo.csv"); }, dir / "fifo.csv",
                  "is a FIFO (named pipe), not a regular file");
    expectRefused([&] { loadExamples(dir / "fifo.csv", {}); }, dir / "fifo.csv", "FIFO");
    std::filesystem::create_directories(dir / "folder.csv");
    expectRefused([&] { readTable(dir / "folder.csv"); }, dir / "folder.csv", "is a directory");
    expectRefused([&] { readTable("/dev/zero"); }, "/dev/zero", "is a character device");
    expectRefused([&] { readTable(dir / "absent.csv"); }, dir / "absent.csv", "does not exist");

    std::filesystem::create_directories(dir / "model");
    ASSERT_EQ(::mkfifo((dir / "model" / "vocab.txt").c_str(), 0600), 0);
    expectRefused([&] { WordPieceTokenizer::fromModelFolder(dir / "model"); },
                  dir / "model" / "vocab.txt", "FIFO");
    ASSERT_EQ(::mkfifo((dir / "model" / "config.json").c_str(), 0600), 0);
    expectRefused([&] { EncoderConfig::fromFile(dir / "model" / "config.json"); },
                  dir / "model" / "config.json", "FIFO");
}

TEST(UserFiles, ImpossibleSizesInConfigJsonAreRefusedBeforeAnyAllocation) {
    test::TempDir dir;
    const auto file = dir / "config.json";
    auto write = [&](const std::string& extra) {
        test::writeFile(file, R"({"model_type": "bert", "vocab_size": 30522, "hidden_size": 768,
            "num_hidden_layers": 12, "num_attention_heads": 12, "intermediate_size": 3072)" +
                                  extra + "}");
    };
    write(R"(, "hidden_size": 1000000000)");
    expectRefused([&] { EncoderConfig::fromFile(file); }, file,
                  "\"hidden_size\" is 1000000000; BERT Studio reads at most");
    write(R"(, "vocab_size": 1000000000000)");
    expectRefused([&] { EncoderConfig::fromFile(file); }, file, "\"vocab_size\"");
    write(R"(, "num_hidden_layers": 100000)");
    expectRefused([&] { EncoderConfig::fromFile(file); }, file, "\"num_hidden_layers\"");
    write(R"(, "num_labels": 1000000000)");
    expectRefused([&] { EncoderConfig::fromFile(file); }, file, "\"num_labels\"");
    // Each size within its bound, together more than any machine holds: refused with the need.
    write(R"(, "vocab_size": 10000000, "hidden_size": 32768, "num_attention_heads": 32)");
    expectRefused([&] { EncoderConfig::fromFile(file); }, file, "fp32 weights alone take");
    // Found by fuzz_config_json: a float where a whole number belongs was converted (undefined
    // behaviour), not refused.
    write(R"(, "hidden_size": 4.2e84)");
    expectRefused([&] { EncoderConfig::fromFile(file); }, file,
                  "\"hidden_size\" must be a whole number");
    write("");
    EXPECT_EQ(EncoderConfig::fromFile(file).hiddenSize, 768);
}

TEST(UserFiles, WrongTypesInTokenizerFilesNameTheFileAndTheKey) {
    test::TempDir dir;
    std::filesystem::create_directories(dir / "model");
    test::writeFile(dir / "model" / "tokenizer.json", R"({"model": {"type": 7, "vocab": {}}})");
    expectRefused([&] { WordPieceTokenizer::fromModelFolder(dir / "model"); },
                  dir / "model" / "tokenizer.json", "field \"type\" must be text, not 7");
    test::writeFile(
        dir / "model" / "tokenizer.json",
        R"({"model": {"type": "WordPiece", "vocab": {"[UNK]": 0}, "max_input_chars_per_word": "many"}})");
    expectRefused([&] { WordPieceTokenizer::fromModelFolder(dir / "model"); },
                  dir / "model" / "tokenizer.json", "\"max_input_chars_per_word\"");
    test::writeFile(dir / "model" / "vocab.txt", "[PAD]\n[UNK]\n[CLS]\n[SEP]\n[MASK]\nword\n");
    test::writeFile(dir / "model" / "tokenizer_config.json", R"({"do_lower_case": "yes"})");
    expectRefused([&] { WordPieceTokenizer::fromModelFolder(dir / "model"); },
                  dir / "model" / "tokenizer_config.json",
                  "\"do_lower_case\" must be true or false");
}

}  // namespace
}  // namespace bert
