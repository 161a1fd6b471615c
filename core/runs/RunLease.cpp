#include "runs/RunLease.h"

#include <chrono>

#include "runs/StoreSql.h"

namespace bert {

RunLease::RunLease(const std::filesystem::path& databaseFile, std::int64_t runId,
                   std::string purpose)
    : file_(store::realPathOf(databaseFile)),
      runId_(runId),
      db_(store::openDatabase(file_, /*readOnly=*/false)) {
    store::checkAndMigrate(*db_, file_, /*readOnly=*/false);
    token_ = store::guarded(file_, "claiming run " + std::to_string(runId), [&] {
        // Under the write lock: of two processes claiming together, the second sees the first's.
        SQLite::Transaction transaction(*db_, SQLite::TransactionBehavior::IMMEDIATE);
        if (const auto holder = store::leaseOf(*db_, runId)) {
            const bool ours = holder->machine == store::machineId() &&
                              holder->pid == static_cast<std::int64_t>(::getpid());
            if (!ours && holder->live()) {
                throw StoreError(file_, "run " + std::to_string(runId) + " is being " +
                                            holder->purpose + " by " + holder->describe() +
                                            "; wait for it to end, or stop it first");
            }
        }
        auto token = store::writeLease(*db_, runId, purpose);
        transaction.commit();
        return token;
    });
    renewer_ = std::thread([this] { renewLoop(); });
}

RunLease::~RunLease() {
    {
        const std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    renewer_.join();
    try {
        SQLite::Statement release(*db_, "DELETE FROM leases WHERE run_id = ? AND token = ?");
        release.bind(1, runId_);
        release.bind(2, token_);
        release.exec();
    } catch (const std::exception&) {
        // The database refuses (full, locked for longer than the busy timeout): the lease
        // expires on its own.
    }
}

void RunLease::renewLoop() {
    const auto interval = std::chrono::duration<double>(store::leaseSeconds() / 4);
    std::unique_lock lock(mutex_);
    while (!wake_.wait_for(lock, interval, [&] { return stopping_; })) {
        lock.unlock();
        try {
            SQLite::Statement renew(
                *db_, "UPDATE leases SET expires_at = ? WHERE run_id = ? AND token = ?");
            renew.bind(1, store::nowSeconds() + store::leaseSeconds());
            renew.bind(2, runId_);
            renew.bind(3, token_);
            if (renew.exec() == 0) {
                lost_.store(true);  // released with the run's end, or taken over
                return;
            }
        } catch (const std::exception&) {
            // Locked or full for now: the next attempt comes well before the lease expires.
        }
        lock.lock();
    }
}

}  // namespace bert
