// Issue 26, points 5 and 9: no failure waits in silence, and every message tells the truth with
// the README's exit code (0 done, 1 internal, 2 bad input, 3 run or LibTorch failed, 4 database
// or disk, 130 cancelled). A full disk is a file-size limit here (RLIMIT_FSIZE: writes past it
// fail with EFBIG), which needs no mount and no root.
#include <algorithm>
#include <chrono>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>
#include <torch/csrc/autograd/grad_mode.h>

#include "../core/TinyModel.h"
#include "cli/CliSupport.h"
#include "hf/SafeTensors.h"
#include "model/Classifiers.h"
#include "runs/RunStore.h"

namespace bert {
namespace {

using Clock = std::chrono::steady_clock;

class CliFailures : public test::CliFixture {
protected:
    /// Runs the command line, killing it (and failing the test) if it is still running after
    /// 3 minutes: what this file checks ends in seconds, and waited 300 s or more before.
    test::Outcome runBounded(const std::vector<std::string>& args,
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
        ::kill(pid, SIGKILL);
        auto outcome = test::finishCli(pid, dir_.path());
        ADD_FAILURE() << "still waiting after 3 minutes, in silence? " << outcome.err;
        return outcome;
    }
};

// A full disk during training printed nothing for 300 s, twice, and exited 4 after 606 s; a
// checkpoint the disk refused ended with exit 3, as if the run itself had failed.
TEST_F(CliFailures, AFullDiskEndsTrainingAtOnceWithExitFourAndSaysWhatFailed) {
    test::StartOptions full;
    full.environment = {{"BERT_STUDIO_RECORDER_GIVE_UP_S", "3600"}};
    // A checkpoint: a model with a 20,000-token embedding table (2.5 MB of weights) against a
    // 1 MB limit, which the database's write-ahead log does not reach in the two steps before
    // the first checkpoint.
    auto big = test::makeModel(2, 32, 4, 0.1, 3, {"neg", "pos"}, 20000);
    exportModelFolder(dir_ / "big", *big.model, *big.tokenizer);
    full.fileSizeLimit = 1 << 20;
    auto bigArgs = trainArgs({"--epochs", "2"});
    bigArgs[4] = (dir_ / "big").string();  // --model
    const auto checkpoint = runBounded(bigArgs, full);
    EXPECT_EQ(checkpoint.code, 4) << checkpoint.err;
    EXPECT_NE(checkpoint.err.find("model.safetensors: could not be written: File too large"),
              std::string::npos)
        << checkpoint.err;
    EXPECT_EQ(RunStore(db_, RunStore::Access::ReadOnly).run(1)->status, RunStatus::Failed);

    // The database: without checkpoints, its write-ahead log is what outgrows the limit (past
    // what creating the schema writes: 150 KiB was under it until schema 8, whose tables made
    // the open itself fail).
    full.fileSizeLimit = 256 * 1024;
    db_ = (dir_ / "second.sqlite").string();
    const auto database = runBounded(trainArgs({"--epochs", "400", "--no-checkpoints"}), full);
    EXPECT_EQ(database.code, 4) << database.err;
    EXPECT_NE(database.err.find("second.sqlite"), std::string::npos) << database.err;
    EXPECT_NE(database.err.find("could not be written"), std::string::npos) << database.err;
    EXPECT_EQ(database.err.find("retrying"), std::string::npos)
        << "a full disk is not a lock: " << database.err;
}

// A full disk during an export named the source file and "Input/output error".
TEST_F(CliFailures, AFullDiskDuringAnExportNamesTheFileItCouldNotWrite) {
    ASSERT_EQ(runBounded(trainArgs({"--max-steps", "2"})).code, 0);
    test::StartOptions full;
    full.fileSizeLimit = 100 * 1024;
    const auto target = dir_ / "exported";
    const auto outcome = runBounded({"--db", db_, "export", "1", target.string()}, full);
    EXPECT_EQ(outcome.code, 4) << outcome.err;
    EXPECT_NE(outcome.err.find((target / "model.safetensors").string() +
                               ": could not be written: File too large"),
              std::string::npos)
        << outcome.err;
    EXPECT_FALSE(std::filesystem::exists(target)) << "a failed export left a partial folder";
}

// Another process's lock is the one thing worth waiting for, and a wait says what it waits for.
TEST_F(CliFailures, AWaitForAnotherProcesssLockSaysWhatItWaitsFor) {
    ASSERT_EQ(runBounded(trainArgs({"--max-steps", "1"})).code, 0);
    SQLite::Database locker(db_, SQLite::OPEN_READWRITE);
    locker.exec("BEGIN EXCLUSIVE");
    test::StartOptions slow;
    slow.environment = {{"BERT_STUDIO_DB_BUSY_MS", "3000"}};
    const auto renamed = runBounded({"--db", db_, "runs", "rename", "1", "x"}, slow);
    locker.exec("ROLLBACK");
    EXPECT_EQ(renamed.code, 4) << renamed.err;
    EXPECT_NE(renamed.err.find("note: waiting for " + db_ + ": another process holds its lock"),
              std::string::npos)
        << renamed.err;
    EXPECT_NE(renamed.err.find("locked"), std::string::npos) << renamed.err;
}

// Under torchrun a rank that never started kept the others for 621 s (twice the 300 s timeout)
// and ended them with a raw c10d stack trace: the documented timeout, once, with one clear
// message; whether the missing rank is rank 0 (which hosts the rendezvous) or another.
TEST_F(CliFailures, ARankThatNeverStartsIsWaitedForOnceAndNamed) {
    constexpr int kTimeout = 20;
    for (const int rank : {0, 1}) {
        SCOPED_TRACE("rank " + std::to_string(rank) + " alone");
        const int socket = ::socket(AF_INET, SOCK_STREAM, 0);
        sockaddr_in address{};
        address.sin_family = AF_INET;
        address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        socklen_t length = sizeof address;
        ASSERT_EQ(::bind(socket, reinterpret_cast<sockaddr*>(&address), sizeof address), 0);
        ASSERT_EQ(::getsockname(socket, reinterpret_cast<sockaddr*>(&address), &length), 0);
        ::close(socket);  // a port free now, where nobody listens
        test::StartOptions alone;
        alone.environment = {{"WORLD_SIZE", "2"},
                             {"RANK", std::to_string(rank)},
                             {"MASTER_ADDR", "127.0.0.1"},
                             {"MASTER_PORT", std::to_string(ntohs(address.sin_port))},
                             {"BERT_STUDIO_COLLECTIVE_TIMEOUT_S", std::to_string(kTimeout)}};
        const auto started = Clock::now();
        const auto outcome = runBounded(trainArgs({"--max-steps", "1"}), alone);
        const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
        std::cout << "rank " << rank << " alone ended after " << seconds << " s (timeout "
                  << kTimeout << " s)\n";
        EXPECT_EQ(outcome.code, 3) << outcome.err;
        EXPECT_NE(outcome.err.find("note: rank " + std::to_string(rank) +
                                   " of 2: waiting for every rank to join"),
                  std::string::npos)
            << outcome.err;
        EXPECT_NE(outcome.err.find("did not join within " + std::to_string(kTimeout) + " s"),
                  std::string::npos)
            << outcome.err;
        EXPECT_EQ(outcome.err.find("Exception raised from"), std::string::npos) << outcome.err;
        EXPECT_EQ(std::count(outcome.err.begin(), outcome.err.end(), '\n'), 2)
            << "one notice and one error: " << outcome.err;
        EXPECT_GE(seconds, kTimeout);
        EXPECT_LT(seconds, 2 * kTimeout) << "waited the timeout twice";
    }
}

/// A tiny model whose config.json says type_vocab_size 1 (RoBERTa-like segments).
void writeOneSegmentModel(const std::filesystem::path& folder) {
    auto config = test::makeModel(2, 32, 4, 0.0, 3).config;
    config.typeVocabSize = 1;
    const auto model = createClassifier(config);
    model->initializeWeights(3);
    exportModelFolder(folder, *model, *test::tinyTokenizer());
}

TEST_F(CliFailures, MessagesAboutTheModelTellTheTruth) {
    // type_vocab_size 1 with a pair column: "LibTorch error: index out of range", exit 3.
    writeOneSegmentModel(dir_ / "one-segment");
    std::string pairs = "first,second,label\n";
    for (int i = 0; i < 40; ++i) {
        pairs += i % 2 == 0 ? "a great film,i loved it,pos\n" : "the film,was very bad,neg\n";
    }
    test::writeFile(dir_ / "pairs.csv", pairs);
    const auto pair = runBounded({"--db", db_, "train", "--model", (dir_ / "one-segment").string(),
                                  "--train", (dir_ / "pairs.csv").string(), "--text-column",
                                  "first", "--pair-column", "second", "--max-steps", "1"});
    EXPECT_EQ(pair.code, 2) << pair.err;
    EXPECT_NE(pair.err.find("config.json: has type_vocab_size 1"), std::string::npos) << pair.err;
    // A family without token types (DistilBERT, ModernBERT: type_vocab_size 0) reads pairs
    // without them: the check above must not refuse it.
    for (const std::string type : {"distilbert", "modernbert"}) {
        auto bundle = test::makeFamilyModel(type, 2, 32, 4, 0.0, 3);
        exportModelFolder(dir_ / type, *bundle.model, *bundle.tokenizer);
        const auto read = runBounded({"--db", db_, "train", "--model", (dir_ / type).string(),
                                      "--train", (dir_ / "pairs.csv").string(), "--text-column",
                                      "first", "--pair-column", "second", "--max-steps", "1"});
        EXPECT_EQ(read.code, 0) << type << ": " << read.err;
    }

    // Weights missing from model.safetensors started from random values without a word.
    auto weights = readSafeTensors(dir_ / "model" / "model.safetensors");
    std::vector<std::pair<std::string, at::Tensor>> kept;
    std::size_t dropped = 0;
    for (const auto& [name, tensor] : weights.tensors) {
        if (name.find("encoder.layer.0.") != std::string::npos) {
            ++dropped;
        } else {
            kept.emplace_back(name, tensor);
        }
    }
    ASSERT_GT(dropped, 0U);
    writeSafeTensors(dir_ / "model" / "model.safetensors", kept, weights.metadata);
    const auto trained = runBounded(trainArgs({"--max-steps", "1"}));
    EXPECT_EQ(trained.code, 0) << trained.err;
    EXPECT_NE(trained.err.find("warning: " + std::to_string(dropped) +
                               " weights of the model were not in"),
              std::string::npos)
        << trained.err;
    EXPECT_NE(trained.err.find("encoder.layer.0."), std::string::npos) << trained.err;
    const auto predicted = runBounded({"predict", "-m", (dir_ / "model").string(), "good"});
    EXPECT_NE(predicted.err.find("warning: these weights were not in"), std::string::npos)
        << predicted.err;

    // A NaN weight made predict print "-nan" and exit 0.
    auto bundle = test::makeModel(2, 32, 4, 0.0, 3);
    {
        const torch::NoGradGuard noGrad;
        test::classifierOf(bundle).weight[0][0].fill_(std::numeric_limits<float>::quiet_NaN());
    }
    exportModelFolder(dir_ / "nan", *bundle.model, *bundle.tokenizer);
    const auto nan = runBounded({"predict", "-m", (dir_ / "nan").string(), "good"});
    EXPECT_EQ(nan.code, 2) << nan.out << nan.err;
    EXPECT_NE(nan.err.find("holds NaN or infinite values"), std::string::npos) << nan.err;
    EXPECT_EQ(nan.out.find("nan"), std::string::npos) << nan.out;
}

TEST_F(CliFailures, MessagesAboutTheDatabaseTellTheTruth) {
    // A zero-byte database said "older or no schema"; a folder "disk I/O error".
    test::writeFile(dir_ / "empty.sqlite", "");
    const auto empty = runBounded({"--db", (dir_ / "empty.sqlite").string(), "runs", "show", "1"});
    EXPECT_EQ(empty.code, 2) << empty.err;
    EXPECT_NE(empty.err.find("is an empty file (0 bytes)"), std::string::npos) << empty.err;
    EXPECT_EQ(runBounded({"--db", (dir_ / "empty.sqlite").string(), "runs", "list"}).code, 0);
    std::filesystem::create_directories(dir_ / "folder.sqlite");
    for (const auto& command :
         std::vector<std::vector<std::string>>{{"runs", "list"}, {"runs", "rename", "1", "x"}}) {
        auto args = command;
        args.insert(args.begin(), {"--db", (dir_ / "folder.sqlite").string()});
        const auto folder = runBounded(args);
        EXPECT_EQ(folder.code, 2) << folder.err;
        EXPECT_NE(folder.err.find("is a folder, not a run database file"), std::string::npos)
            << folder.err;
    }
}

// Labels that differ only in case, surrounding spaces, Unicode normalisation or the spelling of
// a number became separate classes without a word; a text column taken for labels made 194
// classes, also without a word.
TEST_F(CliFailures, LabelsThatLookAlikeOrLikeTextAreSaidBeforeTraining) {
    std::string alike = "text,label\n";
    const std::vector<std::string> labels = {"pos",         "Pos",          "neg", "\"neg \"",
                                             "caf\xc3\xa9", "cafe\xcc\x81", "1",   "1.0"};
    for (int i = 0; i < 64; ++i) {
        alike += std::string(i % 2 == 0 ? "a great film" : "the film was very bad") + "," +
                 labels[static_cast<std::size_t>(i) % labels.size()] + "\n";
    }
    test::writeFile(dir_ / "alike.csv", alike);
    const auto trained = runBounded({"--db", db_, "train", "--model", (dir_ / "model").string(),
                                     "--train", (dir_ / "alike.csv").string(), "--max-steps", "2"});
    ASSERT_EQ(trained.code, 0) << trained.err;
    for (const char* warning :
         {"warning: labels \"Pos\" and \"pos\" differ only in case",
          "warning: labels \"neg\" and \"neg \" differ only in surrounding spaces",
          "differ only in Unicode normalisation",
          "warning: labels \"1\" and \"1.0\" are the same "
          "number"}) {
        EXPECT_NE(trained.err.find(warning), std::string::npos) << warning << "\n" << trained.err;
    }
    // Shown apart where they are shown: the trailing space and the accents' encodings visible.
    const auto show = runBounded({"--db", db_, "runs", "show", "1"});
    ASSERT_EQ(show.code, 0) << show.err;
    EXPECT_NE(show.out.find("\"neg \""), std::string::npos) << show.out;
    EXPECT_NE(show.out.find("\"cafe\\u0301\""), std::string::npos) << show.out;

    std::string text = "text,label\n";
    for (int i = 0; i < 60; ++i) {
        text += "a great film,the reviewer number " + std::to_string(i / 2) + " said it was good\n";
    }
    test::writeFile(dir_ / "text.csv", text);
    const auto freeText = runBounded({"--db", db_, "train", "--model", (dir_ / "model").string(),
                                      "--train", (dir_ / "text.csv").string(), "--max-steps", "1"});
    EXPECT_NE(freeText.err.find("warning: the label column has 30 classes"), std::string::npos)
        << freeText.err;
    EXPECT_NE(freeText.err.find("looks like free text"), std::string::npos) << freeText.err;
}

}  // namespace
}  // namespace bert
