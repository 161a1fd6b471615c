// User input the command line read wrongly without a word: texts given as arguments split as a
// list, CRLF kept from standard input, invalid UTF-8 ending --json with a library error, a
// config.json with layer_norm_eps -1 printing NaN probabilities, a model whose outputs overflow,
// and a CSV with one stray NUL deep inside refused whole as binary.
#include <algorithm>
#include <chrono>
#include <sys/wait.h>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <torch/csrc/autograd/grad_mode.h>

#include "../core/TinyModel.h"
#include "cli/CliSupport.h"
#include "model/Classifiers.h"

namespace bert {
namespace {

class CliInput : public test::CliFixture {
protected:
    test::Outcome run(const std::vector<std::string>& args,
                      const test::StartOptions& options = {}) {
        const pid_t pid = test::startCli(args, dir_.path(), options);
        for (int i = 0; i < 1800; ++i) {
            int status = 0;
            if (::waitpid(pid, &status, WNOHANG) == pid) {
                test::Outcome outcome;
                outcome.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
                outcome.out = test::readFile(dir_ / "stdout");
                outcome.err = test::readFile(dir_ / "stderr");
                return outcome;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(100));
        }
        ADD_FAILURE() << "the command did not end in 3 minutes";
        return {};
    }

    /// The "text" of each JSON line of out.
    static std::vector<std::string> textsOf(const std::string& out) {
        std::vector<std::string> texts;
        std::size_t start = 0;
        while (start < out.size()) {
            const auto end = std::min(out.find('\n', start), out.size());
            if (end > start) {
                texts.push_back(nlohmann::json::parse(out.substr(start, end - start))["text"]);
            }
            start = end + 1;
        }
        return texts;
    }

    std::string model() const { return (dir_ / "model").string(); }
};

TEST_F(CliInput, TextsGivenAsArgumentsAreTextsWhateverTheyLookLike) {
    // "[Offer, free money]" was classified as two texts, and "[x]" as "x".
    const auto result = run({"predict", "-m", model(), "--json", "[Offer, free money]", "[x]"});
    ASSERT_EQ(result.code, 0) << result.err;
    EXPECT_EQ(textsOf(result.out), (std::vector<std::string>{"[Offer, free money]", "[x]"}));
}

TEST_F(CliInput, StandardInputLosesItsCarriageReturns) {
    test::writeFile(dir_ / "input.txt", "good film\r\nbad film\r\n");
    test::StartOptions options;
    options.input = dir_ / "input.txt";
    const auto result = run({"predict", "-m", model(), "--json", "-"}, options);
    ASSERT_EQ(result.code, 0) << result.err;
    EXPECT_EQ(textsOf(result.out), (std::vector<std::string>{"good film", "bad film"}));
}

TEST_F(CliInput, InvalidUtf8IsReplacedAndSaidNotAJsonLibraryError) {
    // Exit 1 with "[json.exception.type_error.316] invalid UTF-8 byte" before.
    const auto result = run({"predict", "-m", model(), "--json", "caf\xE9 good"});
    ASSERT_EQ(result.code, 0) << result.err;
    EXPECT_EQ(textsOf(result.out), (std::vector<std::string>{"caf\uFFFD good"}));
    EXPECT_NE(result.err.find("invalid UTF-8 sequences replaced in the texts: 1"),
              std::string::npos)
        << result.err;
}

TEST_F(CliInput, AConfigWithANegativeLayerNormEpsilonIsRefused) {
    // layer_norm_eps -1 printed NaN probabilities with exit 0.
    std::filesystem::copy(dir_ / "model", dir_ / "eps", std::filesystem::copy_options::recursive);
    auto config = nlohmann::json::parse(test::readFile(dir_ / "eps" / "config.json"));
    config["layer_norm_eps"] = -1;
    test::writeFile(dir_ / "eps" / "config.json", config.dump());
    const auto result = run({"predict", "-m", (dir_ / "eps").string(), "good film"});
    EXPECT_EQ(result.code, 2) << result.out << result.err;
    EXPECT_NE(result.err.find("field \"layer_norm_eps\" must be a positive number"),
              std::string::npos)
        << result.err;
    EXPECT_EQ(result.out, "");
}

TEST_F(CliInput, OutputsThatAreNotNumbersAreRefusedWithExitThree) {
    // Finite weights whose logits overflow: softmax of infinities is NaN.
    auto bundle = test::makeModel(2, 32, 4, 0.0, 3);
    {
        const torch::NoGradGuard noGrad;
        // The pooler's output is tanh(10) for every unit, so each logit is 32 x 3e38: infinite.
        const auto parameters = bundle.model->named_parameters();
        parameters["bert.pooler.dense.weight"].zero_();
        parameters["bert.pooler.dense.bias"].fill_(10.0F);
        test::classifierOf(bundle).weight.fill_(3e38F);
    }
    exportModelFolder(dir_ / "overflow", *bundle.model, *bundle.tokenizer);
    const auto result = run({"predict", "-m", (dir_ / "overflow").string(), "good film"});
    EXPECT_EQ(result.code, 3) << result.out << result.err;
    EXPECT_NE(result.err.find("are not numbers (NaN or infinite)"), std::string::npos)
        << result.err;
    EXPECT_EQ(result.out.find("nan"), std::string::npos) << result.out;
}

// A real-size file with one NUL deep inside one text: read, the NUL removed, and said, by
// train and predict --file; a row without text is counted with its line.
TEST_F(CliInput, AStrayNulDeepInACsvIsRemovedAndNamedByTrainAndPredict) {
    const auto reviews = test::readFile(dir_ / "reviews.csv");
    const auto header = reviews.substr(0, reviews.find('\n') + 1);
    const auto body = reviews.substr(header.size());
    std::string csv = header;
    while (csv.size() < 20000) {
        csv += body;
    }
    // Past the first 8 KiB, between two letters of a review.
    std::size_t at = 12000;
    const auto letter = [&](std::size_t i) {
        return std::isalpha(static_cast<unsigned char>(csv[i])) != 0;
    };
    while (!(letter(at - 1) && letter(at))) {
        ++at;
    }
    const auto line =
        1 + std::count(csv.begin(), csv.begin() + static_cast<std::ptrdiff_t>(at), '\n');
    csv.insert(at, 1, '\0');
    const auto blankLine = 1 + std::count(csv.begin(), csv.end(), '\n');
    csv += ",pos\n";  // a row without a text
    test::writeFile(dir_ / "reviews.csv", csv);
    const std::string nul = "control characters removed: 1 (the first, NUL, on line " +
                            std::to_string(line) + " in column \"review\")";

    const auto predicted = run({"predict", "-m", model(), "--file", (dir_ / "reviews.csv").string(),
                                "--text-column", "review", "--label-column", "sentiment"});
    ASSERT_EQ(predicted.code, 0) << predicted.err;
    EXPECT_NE(predicted.err.find((dir_ / "reviews.csv").string() + ": " + nul), std::string::npos)
        << predicted.err;

    const auto trained = run(trainArgs({"--max-steps", "1"}));
    ASSERT_EQ(trained.code, 0) << trained.err;
    const auto said = trained.out + trained.err;
    EXPECT_NE(said.find(nul), std::string::npos) << said;
    EXPECT_NE(said.find("rows without text or label skipped: 1 (the first on line " +
                        std::to_string(blankLine) + ")"),
              std::string::npos)
        << said;
}

}  // namespace
}  // namespace bert
