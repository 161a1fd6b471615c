#pragma once

// No silent waits (issue 26: a full disk once printed nothing for 300 s, twice): whatever waits
// longer than a second for something outside the process (another process's lock on the run
// database, ranks that have not joined yet, ranks that must stop) says what it waits for, once
// per wait, through here.

#include <chrono>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

namespace bert {

/// How long a wait may stay silent.
inline constexpr std::chrono::milliseconds kSilentWaitLimit{1000};

/// Says what is being waited for. By default a line "note: <what>" on standard error; a program
/// may route it elsewhere (the handler must be safe to call from any thread).
void noticeWait(const std::string& what);
void setWaitNoticeHandler(std::function<void(const std::string&)> handler);

/// Says `what` if it is still alive after kSilentWaitLimit: put one around a call that blocks
/// for as long as another party makes it (a rendezvous, a join).
class WaitNotice {
public:
    explicit WaitNotice(std::string what);
    ~WaitNotice();
    WaitNotice(const WaitNotice&) = delete;
    WaitNotice& operator=(const WaitNotice&) = delete;

private:
    std::mutex mutex_;
    std::condition_variable done_;
    bool finished_ = false;
    std::thread watcher_;
};

}  // namespace bert
