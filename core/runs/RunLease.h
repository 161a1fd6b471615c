#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace SQLite {
class Database;
}

namespace bert {

/// One process trains a run: the claim, a row of the store's leases table, held while this
/// object lives. Claimed in one transaction under the write lock, so that of two `resume 1`
/// started together exactly one trains; renewed by a thread of its own (every quarter of its
/// lifetime, runs/StoreSql.h leaseSeconds) and released on destruction.
///
/// Liveness is the lease, not a pid and a host name: a lease whose holder died expires (at once
/// when the holder was on this machine and in this pid namespace, else after its lifetime), so a
/// run whose process died, or whose database moved to another machine or container, is not
/// stuck "running" forever. A lease that another process took over (this process was frozen for
/// longer than the lifetime) is not renewed again; lost() says so.
class RunLease {
public:
    /// Claims run runId of the database for this process; purpose says what it does ("trained",
    /// "resumed") in the message another process gets. A lease this process already holds
    /// (RunStore::createRun writes one with the run) is taken over. Throws StoreError naming the
    /// database when another live process holds it ("run 1 is being resumed by process 1234 on
    /// host (since ...)"), and as the store does for a locked, full or damaged database.
    RunLease(const std::filesystem::path& databaseFile, std::int64_t runId, std::string purpose);
    ~RunLease();
    RunLease(const RunLease&) = delete;
    RunLease& operator=(const RunLease&) = delete;

    std::int64_t runId() const { return runId_; }
    /// Another process took the lease over; this one no longer holds the run.
    bool lost() const { return lost_.load(); }

private:
    void renewLoop();

    std::filesystem::path file_;
    std::int64_t runId_;
    std::string token_;
    std::unique_ptr<SQLite::Database> db_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::atomic<bool> lost_{false};
    std::thread renewer_;
};

}  // namespace bert
