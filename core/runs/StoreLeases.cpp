#include <cerrno>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <random>
#include <signal.h>
#include <unistd.h>

#include "runs/StoreSql.h"

// The leases of runs (one process trains a run) and the older pid-and-host check: the part of
// StoreSql.h that says whether a run still runs.

namespace bert::store {

bool processMayBeAlive(std::int64_t pid, const std::string& host) {
    if (host != hostName()) {
        return true;  // another machine's run (a shared folder) cannot be checked
    }
    return pid > 0 && !(::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
}

namespace {

std::string firstLineOf(const char* file) {
    std::ifstream in(file);
    std::string line;
    std::getline(in, line);
    return line;
}

}  // namespace

std::string machineId() {
    static const std::string id = [] {
        const auto boot = firstLineOf("/proc/sys/kernel/random/boot_id");
        char namespaceLink[128] = {};
        const auto length =
            ::readlink("/proc/self/ns/pid", namespaceLink, sizeof namespaceLink - 1);
        if (boot.empty() || length <= 0) {
            return std::string();
        }
        return hostName() + "/" + boot + "/" +
               std::string(namespaceLink, static_cast<std::size_t>(length));
    }();
    return id;
}

double nowSeconds() {
    return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

double leaseSeconds() {
    return 60.0;
}

bool LeaseHolder::live() const {
    if (expiresAt <= nowSeconds()) {
        return false;  // its holder stopped renewing it: dead, frozen, or cut off from the file
    }
    // On this machine and in this pid namespace the holder's pid says at once whether it died.
    if (!machine.empty() && machine == machineId()) {
        return pid > 0 && !(::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH);
    }
    return true;
}

std::string LeaseHolder::describe() const {
    return "process " + std::to_string(pid) + " on " + host + " (since " + claimedAt + ")";
}

std::optional<LeaseHolder> leaseOf(SQLite::Database& db, std::int64_t runId) {
    if (!db.tableExists("leases")) {
        return std::nullopt;
    }
    SQLite::Statement query(db,
                            "SELECT token, purpose, pid, host, machine, claimed_at, expires_at "
                            "FROM leases WHERE run_id = ?");
    query.bind(1, runId);
    if (!query.executeStep()) {
        return std::nullopt;
    }
    LeaseHolder holder;
    holder.token = query.getColumn(0).getString();
    holder.purpose = query.getColumn(1).getString();
    holder.pid = query.getColumn(2).getInt64();
    holder.host = query.getColumn(3).getString();
    holder.machine = query.getColumn(4).getString();
    holder.claimedAt = query.getColumn(5).getString();
    holder.expiresAt = query.getColumn(6).getDouble();
    return holder;
}

std::string writeLease(SQLite::Database& db, std::int64_t runId, const std::string& purpose) {
    std::random_device entropy;
    char token[40];
    std::snprintf(token, sizeof token, "%08x%08x%08x%08x", entropy(), entropy(), entropy(),
                  entropy());
    SQLite::Statement insert(
        db,
        "INSERT OR REPLACE INTO leases (run_id, token, purpose, pid, host, machine, claimed_at, "
        "expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    insert.bind(1, runId);
    insert.bind(2, token);
    insert.bind(3, purpose);
    insert.bind(4, static_cast<std::int64_t>(::getpid()));
    insert.bind(5, hostName());
    insert.bind(6, machineId());
    insert.bind(7, nowIso());
    insert.bind(8, nowSeconds() + leaseSeconds());
    insert.exec();
    return token;
}

bool runningRunIsAlive(SQLite::Database& db, std::int64_t runId, std::int64_t pid,
                       const std::string& host) {
    if (const auto lease = leaseOf(db, runId)) {
        return lease->live();
    }
    return processMayBeAlive(pid, host);
}

}  // namespace bert::store
