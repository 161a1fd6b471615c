#include "worker/WorkerProcesses.h"

#include <array>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <QCoreApplication>

#include "Error.h"
#include "train/EventStream.h"

extern char** environ;

namespace bert::ui {

namespace {

constexpr int kEventsFd = 3;            // the descriptor the command line writes events to
constexpr int kPollMilliseconds = 200;  // how soon a cancel reaches the launcher

/// A file descriptor closed when it goes out of scope.
class Descriptor {
public:
    explicit Descriptor(int fd = -1) : fd_(fd) {}
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    ~Descriptor() { reset(); }
    int get() const { return fd_; }
    void reset() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
        fd_ = -1;
    }

private:
    int fd_;
};

/// A scratch folder for the launcher's messages, removed when it goes out of scope.
class ScratchFolder {
public:
    ScratchFolder() {
        std::string pattern =
            (std::filesystem::temp_directory_path() / "bert-studio-XXXXXX").string();
        if (::mkdtemp(pattern.data()) == nullptr) {
            throw EngineError(
                std::filesystem::temp_directory_path(),
                std::string("cannot create a scratch folder: ") + std::strerror(errno));
        }
        path_ = pattern;
    }
    ScratchFolder(const ScratchFolder&) = delete;
    ScratchFolder& operator=(const ScratchFolder&) = delete;
    ~ScratchFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

/// The last "error: ..." line of the launcher's messages (its ranks' included).
std::string lastErrorLine(const std::filesystem::path& file) {
    std::ifstream in(file);
    std::string last;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("error: ", 0) == 0) {
            last = line.substr(7);
        }
    }
    return last;
}

}  // namespace

std::filesystem::path commandLineProgram() {
    if (const char* overridden = std::getenv("BERT_STUDIO_CLI"); overridden && *overridden) {
        return overridden;
    }
    return std::filesystem::path(QCoreApplication::applicationDirPath().toStdString()) /
           "bert-studio-cli";
}

LaunchedRun runCommandLine(const std::vector<std::string>& arguments,
                           const std::filesystem::path& database, TrainerObserver& observer,
                           const std::function<void(std::int64_t)>& onRunCreated,
                           const std::atomic<bool>& cancel) {
    const auto program = commandLineProgram();
    if (::access(program.c_str(), X_OK) != 0) {
        throw EngineError(program, "cannot start the command line for data-parallel training: " +
                                       std::string(std::strerror(errno)));
    }
    ScratchFolder scratch;
    const auto messages = scratch.path() / "messages.txt";

    std::array<int, 2> pipeEnds{};
    if (::pipe2(pipeEnds.data(), O_CLOEXEC) != 0) {
        throw EngineError(std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    Descriptor reading(pipeEnds[0]);
    // dup2 onto the events descriptor clears close-on-exec, unless the pipe is already there.
    Descriptor writing(pipeEnds[1] == kEventsFd ? ::fcntl(pipeEnds[1], F_DUPFD_CLOEXEC, 10)
                                                : pipeEnds[1]);
    if (pipeEnds[1] == kEventsFd) {
        ::close(pipeEnds[1]);
    }

    std::vector<std::string> words = {program.string(), "--db", database.string()};
    words.insert(words.end(), arguments.begin(), arguments.end());
    words.insert(words.end(), {"--events-fd", std::to_string(kEventsFd)});
    std::vector<char*> argv;
    for (auto& word : words) {
        argv.push_back(word.data());
    }
    argv.push_back(nullptr);

    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, writing.get(), kEventsFd);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, messages.c_str(),
                                     O_WRONLY | O_CREAT | O_TRUNC, 0600);
    pid_t launcher = 0;
    const int spawned =
        ::posix_spawn(&launcher, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    if (spawned != 0) {
        throw EngineError(program, std::string("cannot start: ") + std::strerror(spawned));
    }
    writing.reset();  // only the launcher and its ranks hold the write end: EOF when they end

    LaunchedRun launched;
    EventLineReader reader(observer);
    std::string pending;
    bool interrupted = false;
    std::array<char, 8192> buffer{};
    for (;;) {
        if (cancel.load() && !interrupted) {
            ::kill(launcher, SIGINT);  // the launcher passes it to every rank
            interrupted = true;
        }
        pollfd ready{reading.get(), POLLIN, 0};
        const int polled = ::poll(&ready, 1, kPollMilliseconds);
        if (polled < 0 && errno != EINTR) {
            break;
        }
        if (polled <= 0) {
            continue;
        }
        const auto n = ::read(reading.get(), buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break;  // every writer has exited
        }
        pending.append(buffer.data(), static_cast<std::size_t>(n));
        for (auto end = pending.find('\n'); end != std::string::npos; end = pending.find('\n')) {
            const bool hadRun = reader.runId().has_value();
            reader.feed(std::string_view(pending).substr(0, end));
            pending.erase(0, end + 1);
            if (!hadRun && reader.runId() && onRunCreated) {
                onRunCreated(*reader.runId());
            }
        }
    }
    int status = 0;
    while (::waitpid(launcher, &status, 0) < 0 && errno == EINTR) {
    }
    launched.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    launched.runId = reader.runId();
    launched.result = reader.result();
    launched.errorMessage = lastErrorLine(messages);
    return launched;
}

}  // namespace bert::ui
