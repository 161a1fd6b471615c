#include "distributed/Collective.h"

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <netdb.h>
#include <poll.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/PrefixStore.hpp>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/version.h>
#ifdef BERT_STUDIO_WITH_NCCL
#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#include "io/WaitNotice.h"

namespace bert {

namespace {

/// An integer environment variable in [low, high], or fallback when unset.
int environmentInt(const char* name, int fallback, int low, int high) {
    const char* text = std::getenv(name);
    if (text == nullptr || *text == '\0') {
        return fallback;
    }
    char* end = nullptr;
    const long value = std::strtol(text, &end, 10);
    if (*end != '\0' || value < low || value > high) {
        throw InputError("the environment variable " + std::string(name) + "=\"" + text +
                         "\" is not a whole number from " + std::to_string(low) + " to " +
                         std::to_string(high));
    }
    return static_cast<int>(value);
}

std::string environmentText(const char* name) {
    const char* text = std::getenv(name);
    return text == nullptr ? std::string() : std::string(text);
}

/// Whether something accepts TCP connections at address:port before deadline (tried every
/// 200 ms, each attempt bounded by the time left).
bool waitUntilAnswers(const std::string& address, int port,
                      std::chrono::steady_clock::time_point deadline) {
    addrinfo hints{};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    for (;;) {
        addrinfo* found = nullptr;
        if (::getaddrinfo(address.c_str(), std::to_string(port).c_str(), &hints, &found) == 0) {
            for (auto* candidate = found; candidate != nullptr; candidate = candidate->ai_next) {
                const int fd = ::socket(candidate->ai_family,
                                        candidate->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
                                        candidate->ai_protocol);
                if (fd < 0) {
                    continue;
                }
                bool connected = ::connect(fd, candidate->ai_addr, candidate->ai_addrlen) == 0;
                if (!connected && errno == EINPROGRESS) {
                    pollfd waiting{fd, POLLOUT, 0};
                    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
                        deadline - std::chrono::steady_clock::now());
                    int error = 0;
                    socklen_t length = sizeof error;
                    connected =
                        ::poll(&waiting, 1,
                               static_cast<int>(std::clamp<std::int64_t>(left.count(), 0, 1000))) ==
                            1 &&
                        ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length) == 0 && error == 0;
                }
                ::close(fd);
                if (connected) {
                    ::freeaddrinfo(found);
                    return true;
                }
            }
            ::freeaddrinfo(found);
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            return false;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
    }
}

constexpr int kMaxRanks = 1 << 20;
constexpr int kMaxPort = 65535;

}  // namespace

void refuseMoreRanksThanGpus(int processes, int visibleDevices) {
#ifdef BERT_STUDIO_WITH_NCCL
    const bool glooAsked = environmentText("BERT_STUDIO_DISTRIBUTED_BACKEND") == "gloo";
    if (glooAsked || visibleDevices <= 0 || processes <= visibleDevices) {
        return;
    }
    throw InputError("--nproc " + std::to_string(processes) +
                     " on CUDA needs a GPU per process, and " + "this machine shows " +
                     std::to_string(visibleDevices) + (visibleDevices == 1 ? " GPU" : " GPUs") +
                     " (NCCL cannot put two ranks on one); " + "use --nproc " +
                     std::to_string(visibleDevices) +
                     " or fewer, or BERT_STUDIO_DISTRIBUTED_BACKEND=gloo to rehearse several ranks "
                     "on one GPU");
#else
    (void)processes;
    (void)visibleDevices;
#endif
}

std::chrono::milliseconds ncclTimeout(std::chrono::milliseconds collective) {
    return std::max(std::chrono::milliseconds(1000), collective / 2);
}

std::chrono::milliseconds collectiveTimeout() {
    constexpr int kLongest = 86400;
    const int seconds =
        environmentInt("BERT_STUDIO_COLLECTIVE_TIMEOUT_S",
                       static_cast<int>(kDefaultCollectiveTimeout.count()), 1, kLongest);
    return std::chrono::seconds(seconds);
}

WorldInfo WorldInfo::fromEnvironment() {
    WorldInfo world;
    const bool torchrun = !environmentText("WORLD_SIZE").empty();
    const bool slurm = !torchrun && !environmentText("SLURM_NTASKS").empty();
    if (!torchrun && !slurm) {
        return world;
    }
    if (torchrun) {
        world.size = environmentInt("WORLD_SIZE", 1, 1, kMaxRanks);
        world.rank = environmentInt("RANK", 0, 0, world.size - 1);
        world.localRank = environmentInt("LOCAL_RANK", world.rank, 0, kMaxRanks);
    } else {
        world.size = environmentInt("SLURM_NTASKS", 1, 1, kMaxRanks);
        world.rank = environmentInt("SLURM_PROCID", 0, 0, world.size - 1);
        world.localRank = environmentInt("SLURM_LOCALID", 0, 0, kMaxRanks);
    }
    auto address = environmentText("MASTER_ADDR");
    if (address.empty() && slurm) {
        address = environmentText("SLURM_LAUNCH_NODE_IPADDR");
    }
    if (!address.empty()) {
        world.masterAddress = address;
    } else if (world.size > 1 && slurm) {
        throw InputError(
            "under Slurm, set MASTER_ADDR to the first node's address (for example "
            "MASTER_ADDR=$(scontrol show hostnames | head -1))");
    }
    world.masterPort = environmentInt("MASTER_PORT", kDefaultMasterPort, 1, kMaxPort);
    return world;
}

std::string WorldInfo::deviceForRank(const std::string& device, int visibleDevices) const {
    if (device.rfind("cuda", 0) != 0) {
        return device;
    }
    return "cuda:" + std::to_string(visibleDevices > 0 ? localRank % visibleDevices : localRank);
}

std::string prepareNcclErrorHandling() {
    // torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp reads TORCH_NCCL_ASYNC_ERROR_HANDLING when
    // the group is made; its default, 3 (SkipCleanUp), has the watchdog thread take the whole
    // process down when a collective fails or times out: no message of ours, no exit code 3.
    // 2 (CleanUpOnly) aborts the communicators and leaves the process running: the failure
    // then reaches the training thread (the next collective, or the Gloo agreement of every
    // step), which ends with the CollectiveError the Gloo path gives. A user's own setting wins.
    constexpr const char* kVariable = "TORCH_NCCL_ASYNC_ERROR_HANDLING";
    ::setenv(kVariable, "2", /*overwrite=*/0);
    return environmentText(kVariable);
}

class Collective::Impl {
public:
    c10::intrusive_ptr<c10d::TCPStore> store;
    c10::intrusive_ptr<c10d::Backend> group;
    /// Collectives of host figures (step agreements, memory, fingerprints, random states): the
    /// Gloo group itself, or under NCCL a Gloo group beside it, so that they never touch the
    /// GPU (NCCL takes CUDA tensors only: a figure made there had to be read back, a host wait
    /// twice a step).
    c10::intrusive_ptr<c10d::Backend> hostGroup;
    std::chrono::milliseconds timeout;
    int rank = 0;
    bool nccl = false;
    bool failed = false;

    /// Runs one collective (launch and wait); any failure becomes a CollectiveError naming what
    /// and why. Gloo's waits block (its work runs on the host). NCCL's wait makes the current
    /// stream wait for the collective and returns: given a timeout it would block the host
    /// until the collective ends (ProcessGroupNCCL.cpp, WorkNCCL::wait: "block the CPU thread
    /// until the work is completed or timed out"), once per bucket. NCCL's own timeout
    /// (Options::timeout, the watchdog) bounds those instead.
    template <typename Launch>
    void run(const char* what, bool onHost, Launch&& launch) {
        try {
            const c10::intrusive_ptr<c10d::Work> work = launch();
            if (nccl && !onHost) {
                work->wait();
            } else {
                work->wait(timeout);
            }
        } catch (const std::exception& error) {
            failed = true;
            std::string reason = error.what();
            reason = reason.substr(0, reason.find('\n'));
            throw CollectiveError("rank " + std::to_string(rank) + ": " + what +
                                  " failed (another rank stopped, or did not answer within " +
                                  std::to_string(timeout.count() / 1000) + " s): " + reason);
        }
    }
};

Collective::Collective(std::unique_ptr<Impl> impl, int rank, int size, c10::Device device,
                       std::string backend)
    : impl_(std::move(impl)),
      rank_(rank),
      size_(size),
      device_(device),
      backend_(std::move(backend)) {}

Collective::~Collective() {
    if (!impl_) {
        return;
    }
    std::vector<c10::intrusive_ptr<c10d::Backend>> groups = {impl_->group};
    if (impl_->hostGroup && impl_->hostGroup != impl_->group) {
        groups.push_back(impl_->hostGroup);
    }
    for (const auto& group : groups) {
        if (!group) {
            continue;
        }
        try {
            // After a failure a graceful shutdown could wait for a peer that is gone (NCCL
            // finalises its communicators); abort does not.
#if TORCH_VERSION_MAJOR > 2 || TORCH_VERSION_MINOR >= 6
            if (impl_->failed) {
                group->abort();  // c10d::Backend::abort, since torch 2.6
                continue;
            }
#endif
            group->shutdown();
        } catch (...) {
            // A peer that is already gone: nothing left to close cleanly.
        }
    }
}

std::unique_ptr<Collective> Collective::connect(const WorldInfo& world, c10::Device device,
                                                std::chrono::milliseconds timeout) {
    auto impl = std::make_unique<Impl>();
    impl->timeout = timeout;
    impl->rank = world.rank;
    const std::string where = world.masterAddress + ":" + std::to_string(world.masterPort);
    const auto seconds =
        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count());
    // No silent wait: a rank that has not started yet keeps the others here for the timeout.
    const WaitNotice waiting("rank " + std::to_string(world.rank) + " of " +
                             std::to_string(world.size) + ": waiting for every rank to join at " +
                             where + " (up to " + seconds +
                             " s, BERT_STUDIO_COLLECTIVE_TIMEOUT_S)");
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    const std::string who =
        "rank " + std::to_string(world.rank) + " of " + std::to_string(world.size);
    // A rank other than 0 waits for rank 0's rendezvous to answer itself, within the one
    // timeout: c10d's client waited it twice (621 s for 300) and printed a raw stack trace.
    if (world.rank != 0 && !waitUntilAnswers(world.masterAddress, world.masterPort, deadline)) {
        throw CollectiveError(who + ": rank 0 did not join within " + seconds +
                              " s: nothing answers at " + where +
                              " (was it started? is MASTER_ADDR right?)");
    }
    try {
        c10d::TCPStoreOptions options;
        options.port = static_cast<std::uint16_t>(world.masterPort);
        options.isServer = world.rank == 0;
        options.numWorkers = static_cast<std::size_t>(world.size);
        options.waitWorkers = true;
        options.timeout = std::max(std::chrono::milliseconds(1000),
                                   std::chrono::duration_cast<std::chrono::milliseconds>(
                                       deadline - std::chrono::steady_clock::now()));
        impl->store = c10::make_intrusive<c10d::TCPStore>(world.masterAddress, options);
    } catch (const std::exception& error) {
        std::string reason = error.what();
        reason = reason.substr(0, reason.find('\n'));
        // "Timed out after 300 seconds waiting for clients. 1/2 clients joined."
        int joined = 0;
        int expected = 0;
        const auto at = reason.find("waiting for clients. ");
        if (at != std::string::npos &&
            std::sscanf(reason.c_str() + at, "waiting for clients. %d/%d", &joined, &expected) ==
                2) {
            throw CollectiveError(who + ": " + std::to_string(joined) + " of " +
                                  std::to_string(expected) + " ranks joined at " + where +
                                  "; the others did not join within " + seconds +
                                  " s (were they started? can they reach this address?)");
        }
        throw CollectiveError(who + ": the rendezvous at " + where +
                              " failed (a port in use, or a rank that never started): " + reason);
    }
    // Gloo over loopback when every rank is on this machine; otherwise the address that reaches
    // the master is also how the others reach us.
    auto makeGloo = [&](c10::intrusive_ptr<c10d::Store> store) {
        auto options = c10d::ProcessGroupGloo::Options::create(timeout);
        const bool local = world.masterAddress == "127.0.0.1" || world.masterAddress == "localhost";
        options->devices.push_back(
            local ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                  : c10d::ProcessGroupGloo::createDefaultDevice());
        return c10::make_intrusive<c10d::ProcessGroupGloo>(std::move(store), world.rank, world.size,
                                                           options);
    };
    // BERT_STUDIO_DISTRIBUTED_BACKEND=gloo keeps CUDA runs on Gloo where NCCL is built in (a
    // machine whose NCCL does not work; the CUDA tests of Gloo's staging).
    const bool glooAsked = environmentText("BERT_STUDIO_DISTRIBUTED_BACKEND") == "gloo";
#ifdef BERT_STUDIO_WITH_NCCL
    if (device.is_cuda() && !glooAsked) {
        try {
            prepareNcclErrorHandling();
            // NCCL binds each rank to its device; it connects lazily, at the first collective.
            c10::cuda::set_device(device.index());
            auto options = c10d::ProcessGroupNCCL::Options::create();
            options->timeout = ncclTimeout(timeout);
            impl->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(impl->store, world.rank,
                                                                      world.size, options);
            impl->hostGroup =
                makeGloo(c10::make_intrusive<c10d::PrefixStore>("host-figures", impl->store));
            impl->nccl = true;
        } catch (const std::exception& error) {
            std::string reason = error.what();
            throw CollectiveError(
                "rank " + std::to_string(world.rank) +
                ": creating the NCCL process group failed: " + reason.substr(0, reason.find('\n')));
        }
        return std::unique_ptr<Collective>(
            new Collective(std::move(impl), world.rank, world.size, device, "nccl"));
    }
#else
    (void)glooAsked;  // without NCCL, Gloo reduces CUDA tensors too (through the host)
#endif
    try {
        impl->group = makeGloo(impl->store);
        impl->hostGroup = impl->group;
    } catch (const std::exception& error) {
        std::string reason = error.what();
        throw CollectiveError("rank " + std::to_string(world.rank) +
                              ": connecting the Gloo process group through " + where +
                              " failed: " + reason.substr(0, reason.find('\n')));
    }
    return std::unique_ptr<Collective>(
        new Collective(std::move(impl), world.rank, world.size, device, "gloo"));
}

void Collective::allReduceSum(const std::vector<at::Tensor>& tensors) {
    // Buckets of one dtype and device, in the order given, the first one small.
    std::size_t start = 0;
    std::int64_t limit = kFirstBucketBytes;
    while (start < tensors.size()) {
        std::size_t end = start;
        std::int64_t bytes = 0;
        while (
            end < tensors.size() && tensors[end].scalar_type() == tensors[start].scalar_type() &&
            tensors[end].device() == tensors[start].device() &&
            (end == start || bytes + static_cast<std::int64_t>(tensors[end].nbytes()) <= limit)) {
            bytes += static_cast<std::int64_t>(tensors[end].nbytes());
            ++end;
        }
        std::vector<at::Tensor> flat;
        for (std::size_t i = start; i < end; ++i) {
            flat.push_back(tensors[i].reshape({-1}));
        }
        std::vector<at::Tensor> buffer = {at::cat(flat)};
        impl_->run("a gradient all-reduce", false, [&] { return impl_->group->allreduce(buffer); });
        std::int64_t offset = 0;
        for (std::size_t i = start; i < end; ++i) {
            const auto count = tensors[i].numel();
            tensors[i].copy_(buffer.front().narrow(0, offset, count).view(tensors[i].sizes()));
            offset += count;
        }
        start = end;
        limit = kBucketBytes;
    }
}

std::vector<double> Collective::sumNumbers(std::vector<double> values) {
    // On the host group: figures of the host, summed without the GPU.
    std::vector<at::Tensor> buffer = {at::tensor(values, at::TensorOptions().dtype(at::kDouble))};
    impl_->run("an all-reduce of step figures", true,
               [&] { return impl_->hostGroup->allreduce(buffer); });
    const auto* summed = buffer.front().const_data_ptr<double>();
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = summed[i];
    }
    return values;
}

std::vector<at::Tensor> Collective::allGather(const at::Tensor& tensor) {
    // Given on the CPU (figures, random states), gathered by the host group, returned on the CPU.
    std::vector<at::Tensor> input = {tensor.to(at::kCPU).contiguous()};
    std::vector<std::vector<at::Tensor>> output(1);
    for (int r = 0; r < size_; ++r) {
        output.front().push_back(at::empty_like(input.front()));
    }
    impl_->run("an all-gather", true, [&] { return impl_->hostGroup->allgather(output, input); });
    return output.front();
}

void Collective::send(const at::Tensor& tensor, int to) {
    // Gloo's send and recv treat a tensor's pointer as host memory (ProcessGroupGloo's
    // send/recv take CPU tensors only): a CUDA tensor goes through the host there.
    const bool staged = !impl_->nccl && tensor.is_cuda();
    std::vector<at::Tensor> buffer = {staged ? tensor.to(at::kCPU) : tensor.contiguous()};
    impl_->run("sending optimizer state", staged || !impl_->nccl,
               [&] { return impl_->group->send(buffer, to, /*tag=*/0); });
}

void Collective::receive(at::Tensor& tensor, int from) {
    const bool staged = !impl_->nccl && tensor.is_cuda();
    std::vector<at::Tensor> buffer = {staged ? at::empty_like(tensor, at::kCPU) : tensor};
    impl_->run("receiving optimizer state", staged || !impl_->nccl,
               [&] { return impl_->group->recv(buffer, from, /*tag=*/0); });
    if (staged) {
        tensor.copy_(buffer.front());
    }
}

void Collective::broadcastFrom(int root, const std::vector<at::Tensor>& tensors) {
    if (tensors.empty()) {
        return;
    }
    std::vector<at::Tensor> flat;
    for (const auto& tensor : tensors) {
        flat.push_back(tensor.reshape({-1}));
    }
    std::vector<at::Tensor> buffer = {at::cat(flat)};
    c10d::BroadcastOptions options;
    options.rootRank = root;
    impl_->run(root == 0 ? "the broadcast of rank 0's weights" : "the broadcast of updated weights",
               false, [&] { return impl_->group->broadcast(buffer, options); });
    std::int64_t offset = 0;
    for (const auto& tensor : tensors) {
        const auto count = tensor.numel();
        tensor.copy_(buffer.front().narrow(0, offset, count).view(tensor.sizes()));
        offset += count;
    }
}

std::vector<std::vector<std::int64_t>> Collective::allGather(
    const std::vector<std::int64_t>& values) {
    std::vector<std::vector<std::int64_t>> result;
    for (const auto& tensor : allGather(at::tensor(values, at::TensorOptions().dtype(at::kLong)))) {
        const auto* data = tensor.data_ptr<std::int64_t>();
        result.emplace_back(data, data + tensor.numel());
    }
    return result;
}

}  // namespace bert
