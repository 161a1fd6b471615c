#include "cli/CliSupport.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "../core/TinyModel.h"
#include "runs/RunStore.h"

namespace bert::test {

pid_t startCli(const std::vector<std::string>& args, const std::filesystem::path& dir,
               const StartOptions& options) {
    // Everything the child needs is made before fork: only async-signal-safe calls after it.
    std::vector<std::string> copy = args;
    // BERT_STUDIO_TEST_CLI runs the tests against another build's command line (to show that a
    // test fails without its fix); the tests' own build otherwise.
    const char* other = std::getenv("BERT_STUDIO_TEST_CLI");
    std::string program = other != nullptr && *other != '\0' ? other : BERT_STUDIO_CLI;
    std::vector<char*> argv;
    argv.push_back(program.data());
    for (auto& arg : copy) {
        argv.push_back(arg.data());
    }
    argv.push_back(nullptr);
    const auto out = (dir / "stdout").string();
    const auto err = (dir / "stderr").string();
    const pid_t pid = fork();
    if (pid == 0) {
        if (!options.input.empty()) {
            std::FILE* in = std::fopen(options.input.c_str(), "r");
            dup2(fileno(in), STDIN_FILENO);
        }
        if (!options.workingDirectory.empty() && chdir(options.workingDirectory.c_str()) != 0) {
            _exit(126);
        }
        for (const auto& [name, value] : options.environment) {
            setenv(name.c_str(), value.c_str(), 1);
        }
        if (options.fileSizeLimit > 0) {
            signal(SIGXFSZ, SIG_IGN);  // kept across exec: writes past the limit fail (EFBIG)
            const rlimit limit{options.fileSizeLimit, options.fileSizeLimit};
            setrlimit(RLIMIT_FSIZE, &limit);
        }
        std::FILE* outFile = std::fopen(out.c_str(), "w");
        std::FILE* errFile = std::fopen(err.c_str(), "w");
        dup2(fileno(outFile), STDOUT_FILENO);
        dup2(fileno(errFile), STDERR_FILENO);
        execv(program.c_str(), argv.data());
        _exit(127);
    }
    return pid;
}

Outcome finishCli(pid_t pid, const std::filesystem::path& dir) {
    int status = 0;
    waitpid(pid, &status, 0);
    Outcome outcome;
    outcome.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    outcome.out = readFile(dir / "stdout");
    outcome.err = readFile(dir / "stderr");
    return outcome;
}

Outcome runCli(const std::vector<std::string>& args, const std::filesystem::path& dir,
               const StartOptions& options) {
    return finishCli(startCli(args, dir, options), dir);
}

pid_t workerOfRank(pid_t parent, int rank) {
    for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
        const auto name = entry.path().filename().string();
        if (name.find_first_not_of("0123456789") != std::string::npos) {
            continue;
        }
        std::ifstream stat(entry.path() / "stat");
        std::string pid;
        std::string command;
        std::string state;
        pid_t ppid = 0;
        stat >> pid >> command >> state >> ppid;
        if (ppid != parent) {
            continue;
        }
        std::ifstream environ(entry.path() / "environ", std::ios::binary);
        std::string variable;
        while (std::getline(environ, variable, '\0')) {
            if (variable == "RANK=" + std::to_string(rank)) {
                return static_cast<pid_t>(std::stoi(name));
            }
        }
    }
    return -1;
}

bool processExists(pid_t pid) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string id;
    std::string command;
    std::string state;
    if (!(stat >> id >> command >> state)) {
        return false;
    }
    return state != "Z" && state != "X";
}

void CliFixture::SetUp() {
    auto bundle = makeModel(2, 32, 4, 0.1, 3);
    exportModelFolder(dir_ / "model", *bundle.model, *bundle.tokenizer);
    // A learnable task over the tiny vocabulary, with quoting as real exports have it.
    writeReviewsCsv(dir_ / "reviews.csv", 80);
    db_ = (dir_ / "runs.sqlite").string();
}

std::vector<std::string> CliFixture::trainArgs(const std::vector<std::string>& extra) const {
    std::vector<std::string> args = {"--db",
                                     db_,
                                     "train",
                                     "--model",
                                     (dir_ / "model").string(),
                                     "--train",
                                     (dir_ / "reviews.csv").string(),
                                     "--text-column",
                                     "review",
                                     "--label-column",
                                     "sentiment",
                                     "--batch-size",
                                     "8",
                                     "--max-length",
                                     "32",
                                     "--lr",
                                     "1e-3"};
    args.insert(args.end(), extra.begin(), extra.end());
    return args;
}

std::size_t CliFixture::waitForSteps(std::size_t count, std::int64_t runId) const {
    for (int attempt = 0; attempt < 3600; ++attempt) {
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        if (!std::filesystem::exists(db_)) {
            continue;
        }
        try {
            RunStore store(db_, RunStore::Access::ReadOnly);
            if (store.checkpoints(runId).empty()) {
                continue;
            }
            const auto steps = store.steps(runId).size();
            if (steps >= count) {
                return steps;
            }
        } catch (const std::exception&) {
            // the database may be mid-creation
        }
    }
    return 0;
}

namespace {

const char* const kWords[] = {"the", "cat", "sat",  "on", "mat",    "movie", "film",
                              "i",   "was", "very", "it", "report", "here"};
}  // namespace

void writeTaskCsv(const std::filesystem::path& file, int rows) {
    std::mt19937_64 random(5);
    std::ofstream out(file);
    out << "text,labels,words\n";
    for (int i = 0; i < rows; ++i) {
        const auto count = 3 + random() % 14;
        std::string text;
        for (std::size_t w = 0; w < count; ++w) {
            text += std::string(w == 0 ? "" : " ") + kWords[random() % std::size(kWords)];
        }
        const bool good = random() % 2 == 0;
        const bool bad = random() % 3 == 0;
        text += good ? " good" : "";
        text += bad ? " bad" : "";
        std::string labels = good ? "good" : "";
        labels += bad ? (labels.empty() ? "bad" : ";bad") : "";
        out << '"' << text << "\"," << labels << ',' << count + (good ? 1 : 0) + (bad ? 1 : 0)
            << "\n";
    }
}

void writeConll(const std::filesystem::path& file, int sentences) {
    std::mt19937_64 random(6);
    std::ofstream out(file);
    out << "-DOCSTART- O\n\n";
    for (int i = 0; i < sentences; ++i) {
        const auto count = 3 + random() % 10;
        for (std::size_t w = 0; w < count; ++w) {
            if (random() % 5 == 0) {
                out << (random() % 2 == 0 ? "cat" : "dogs") << " B-ANIMAL\n";
            } else {
                out << kWords[2 + random() % 11] << " O\n";
            }
        }
        out << "\n";
    }
}

}  // namespace bert::test
