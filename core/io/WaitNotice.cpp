#include "io/WaitNotice.h"

#include <cstdio>

namespace bert {

namespace {

std::mutex& handlerMutex() {
    static std::mutex mutex;
    return mutex;
}

std::function<void(const std::string&)>& handler() {
    static std::function<void(const std::string&)> current;
    return current;
}

}  // namespace

void noticeWait(const std::string& what) {
    const std::lock_guard lock(handlerMutex());
    if (handler()) {
        handler()(what);
        return;
    }
    std::fprintf(stderr, "note: %s\n", what.c_str());
    std::fflush(stderr);
}

void setWaitNoticeHandler(std::function<void(const std::string&)> newHandler) {
    const std::lock_guard lock(handlerMutex());
    handler() = std::move(newHandler);
}

WaitNotice::WaitNotice(std::string what)
    : watcher_([this, what = std::move(what)] {
          std::unique_lock lock(mutex_);
          if (!done_.wait_for(lock, kSilentWaitLimit, [&] { return finished_; })) {
              noticeWait(what);
          }
      }) {}

WaitNotice::~WaitNotice() {
    {
        const std::lock_guard lock(mutex_);
        finished_ = true;
    }
    done_.notify_all();
    watcher_.join();
}

}  // namespace bert
