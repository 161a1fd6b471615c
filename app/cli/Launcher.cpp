// `train --nproc N`: a local launcher in the manner of torchrun. It starts N copies of this
// program with torchrun's environment (RANK, LOCAL_RANK, WORLD_SIZE, MASTER_ADDR, MASTER_PORT),
// so the workers cannot tell it from torchrun, and watches them.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <netinet/in.h>
#include <optional>
#include <ostream>
#include <signal.h>
#include <string>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

#include "Commands.h"
#include "Error.h"

namespace bert::cli {

namespace {

using Clock = std::chrono::steady_clock;

/// How long the other ranks get to stop on their own once one has failed: their collectives fail
/// within seconds, and rank 0 records the run as failed before it exits.
constexpr auto kGracePeriod = std::chrono::seconds(30);
/// After SIGTERM, how long before SIGKILL.
constexpr auto kTerminatePeriod = std::chrono::seconds(5);
constexpr auto kPollInterval = std::chrono::milliseconds(100);

/// A TCP port on the loopback that is free now (the kernel's choice).
int freeLoopbackPort() {
    const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0) {
        throw EngineError(std::string("cannot open a socket: ") + std::strerror(errno));
    }
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    address.sin_port = 0;
    socklen_t length = sizeof address;
    if (::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
        ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
        const std::string reason = std::strerror(errno);
        ::close(fd);
        throw EngineError("cannot find a free port on 127.0.0.1: " + reason);
    }
    ::close(fd);
    return ntohs(address.sin_port);
}

struct Worker {
    pid_t pid = -1;
    int rank = 0;
    bool running = true;
    int status = 0;
};

std::string describeExit(int rank, int status) {
    if (WIFSIGNALED(status)) {
        const int signal = WTERMSIG(status);
        return "rank " + std::to_string(rank) + " was killed by signal " + std::to_string(signal) +
               " (" + strsignal(signal) + ")";
    }
    return "rank " + std::to_string(rank) + " failed with exit code " +
           std::to_string(WEXITSTATUS(status));
}

/// Collects workers that have ended; returns false when none is left running.
bool reap(std::vector<Worker>& workers, std::vector<Worker*>& failedInOrder) {
    bool anyRunning = false;
    for (auto& worker : workers) {
        if (!worker.running) {
            continue;
        }
        int status = 0;
        const pid_t done = ::waitpid(worker.pid, &status, WNOHANG);
        if (done == worker.pid) {
            worker.running = false;
            worker.status = status;
            // A cancelled rank (Ctrl-C, agreed by all) is not a failure.
            const bool fine = WIFEXITED(status) && (WEXITSTATUS(status) == exit_code::kDone ||
                                                    WEXITSTATUS(status) == exit_code::kCancelled);
            if (!fine) {
                failedInOrder.push_back(&worker);
            }
        } else {
            anyRunning = true;
        }
    }
    return anyRunning;
}

}  // namespace

int launchWorkers(int processes, int argc, char** argv, const std::atomic<bool>& cancel,
                  std::ostream& err) {
    const int port = freeLoopbackPort();
    // Workers share the cores: LibTorch's default (every core each) would oversubscribe them.
    const unsigned cores = std::max(1U, std::thread::hardware_concurrency());
    const std::string threadsPerWorker =
        std::to_string(std::max(1U, cores / static_cast<unsigned>(processes)));
    std::vector<char*> arguments(argv, argv + argc);
    arguments.push_back(nullptr);
    std::vector<Worker> workers;
    err << "data parallel: " << processes << " workers on 127.0.0.1:" << port << "\n";
    for (int rank = 0; rank < processes; ++rank) {
        // The child's whole environment is made here: between fork and exec only
        // async-signal-safe calls (dup2, execve) are safe in a process with threads.
        std::vector<std::string> environment;
        const std::vector<std::pair<std::string, std::string>> world = {
            {"RANK", std::to_string(rank)},
            {"LOCAL_RANK", std::to_string(rank)},
            {"WORLD_SIZE", std::to_string(processes)},
            {"MASTER_ADDR", "127.0.0.1"},
            {"MASTER_PORT", std::to_string(port)}};
        bool threadsSet = false;
        for (char** variable = environ; *variable != nullptr; ++variable) {
            const std::string entry = *variable;
            const auto name = entry.substr(0, entry.find('='));
            const bool replaced = std::any_of(world.begin(), world.end(),
                                              [&](const auto& pair) { return pair.first == name; });
            threadsSet = threadsSet || name == "OMP_NUM_THREADS";
            if (!replaced) {
                environment.push_back(entry);
            }
        }
        for (const auto& [name, value] : world) {
            environment.push_back(name + "=" + value);
        }
        if (!threadsSet) {
            environment.push_back("OMP_NUM_THREADS=" + threadsPerWorker);
        }
        std::vector<char*> envp;
        for (auto& entry : environment) {
            envp.push_back(entry.data());
        }
        envp.push_back(nullptr);
        const int null = rank > 0 ? ::open("/dev/null", O_WRONLY | O_CLOEXEC) : -1;
        const pid_t launcher = ::getpid();
        const pid_t pid = ::fork();
        if (pid < 0) {
            for (auto& worker : workers) {
                ::kill(worker.pid, SIGTERM);
            }
            throw EngineError(std::string("cannot start a worker: ") + std::strerror(errno));
        }
        if (pid == 0) {
            // A rank dies with its launcher (kill -9 of it, an OOM killer): SIGTERM stops it as
            // Ctrl-C does, instead of training on as an orphan. The check after it covers a
            // launcher that died before prctl.
            ::prctl(PR_SET_PDEATHSIG, SIGTERM);
            if (::getppid() != launcher) {
                ::_exit(exit_code::kCancelled);
            }
            if (null >= 0) {
                // Rank 0 speaks for the run; the others' errors still reach the terminal.
                ::dup2(null, STDOUT_FILENO);
            }
            ::execve("/proc/self/exe", arguments.data(), envp.data());
            ::_exit(exit_code::kRunFailed);
        }
        if (null >= 0) {
            ::close(null);
        }
        workers.push_back({pid, rank});
    }

    std::vector<Worker*> failed;
    bool forwardedCancel = false;
    std::optional<Clock::time_point> firstFailure;
    bool terminated = false;
    while (reap(workers, failed)) {
        if (cancel.load() && !forwardedCancel) {
            // Ctrl-C from a terminal reaches every worker already; a kill -INT (or SIGTERM,
            // SIGHUP: docker stop, systemd, Slurm, timeout) of the launcher alone does not.
            for (const auto& worker : workers) {
                if (worker.running) {
                    ::kill(worker.pid, SIGINT);
                }
            }
            forwardedCancel = true;
        }
        if (!failed.empty() && !firstFailure) {
            firstFailure = Clock::now();
            if (reap(workers, failed)) {
                // No wait in silence: say what the launcher waits for, and how long at most.
                err << "data parallel: "
                    << describeExit(failed.front()->rank, failed.front()->status)
                    << "; waiting up to "
                    << std::chrono::duration_cast<std::chrono::seconds>(kGracePeriod).count()
                    << " s for the other ranks to stop\n"
                    << std::flush;
            }
        }
        if (firstFailure && !terminated && Clock::now() - *firstFailure > kGracePeriod) {
            for (const auto& worker : workers) {
                if (worker.running) {
                    ::kill(worker.pid, SIGTERM);
                }
            }
            terminated = true;
        }
        if (terminated && Clock::now() - *firstFailure > kGracePeriod + kTerminatePeriod) {
            for (const auto& worker : workers) {
                if (worker.running) {
                    ::kill(worker.pid, SIGKILL);
                }
            }
        }
        std::this_thread::sleep_for(kPollInterval);
    }
    if (failed.empty()) {
        for (const auto& worker : workers) {
            if (WEXITSTATUS(worker.status) == exit_code::kCancelled) {
                return exit_code::kCancelled;
            }
        }
        return exit_code::kDone;
    }
    const auto& first = *failed.front();
    err << "data parallel: " << describeExit(first.rank, first.status);
    for (std::size_t i = 1; i < failed.size(); ++i) {
        err << "; then " << describeExit(failed[i]->rank, failed[i]->status);
    }
    err << "\n";
    if (WIFEXITED(first.status) && (WEXITSTATUS(first.status) == exit_code::kBadInput ||
                                    WEXITSTATUS(first.status) == exit_code::kStoreFailed)) {
        return WEXITSTATUS(first.status);
    }
    return exit_code::kRunFailed;
}

}  // namespace bert::cli
