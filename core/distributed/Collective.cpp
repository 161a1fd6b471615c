#include "distributed/Collective.h"

#include <cstdlib>

#include <ATen/ATen.h>
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#ifdef BERT_STUDIO_WITH_NCCL
#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

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

constexpr int kMaxRanks = 1 << 20;
constexpr int kMaxPort = 65535;

}  // namespace

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

class Collective::Impl {
public:
    c10::intrusive_ptr<c10d::TCPStore> store;
    c10::intrusive_ptr<c10d::Backend> group;
    std::chrono::milliseconds timeout;
    int rank = 0;

    /// Waits for one collective; any failure becomes a CollectiveError naming what and why.
    void wait(const c10::intrusive_ptr<c10d::Work>& work, const char* what) {
        try {
            work->wait(timeout);
        } catch (const std::exception& error) {
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
    if (impl_ && impl_->group) {
        try {
            impl_->group->shutdown();
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
    try {
        c10d::TCPStoreOptions options;
        options.port = static_cast<std::uint16_t>(world.masterPort);
        options.isServer = world.rank == 0;
        options.numWorkers = static_cast<std::size_t>(world.size);
        options.waitWorkers = true;
        options.timeout = timeout;
        impl->store = c10::make_intrusive<c10d::TCPStore>(world.masterAddress, options);
    } catch (const std::exception& error) {
        std::string reason = error.what();
        throw CollectiveError("rank " + std::to_string(world.rank) + " of " +
                              std::to_string(world.size) + ": the rendezvous at " + where +
                              " failed (a port in use, or a rank that never started): " +
                              reason.substr(0, reason.find('\n')));
    }
#ifdef BERT_STUDIO_WITH_NCCL
    if (device.is_cuda()) {
        try {
            // NCCL binds each rank to its device; it connects lazily, at the first collective.
            c10::cuda::set_device(device.index());
            auto options = c10d::ProcessGroupNCCL::Options::create();
            options->timeout = timeout;
            impl->group = c10::make_intrusive<c10d::ProcessGroupNCCL>(impl->store, world.rank,
                                                                      world.size, options);
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
    (void)device;  // without NCCL, Gloo reduces CUDA tensors too (through the host)
#endif
    try {
        auto options = c10d::ProcessGroupGloo::Options::create(timeout);
        // Loopback when every rank is on this machine; otherwise the address that reaches the
        // master is also how the others reach us.
        const bool local = world.masterAddress == "127.0.0.1" || world.masterAddress == "localhost";
        options->devices.push_back(
            local ? c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1")
                  : c10d::ProcessGroupGloo::createDefaultDevice());
        impl->group = c10::make_intrusive<c10d::ProcessGroupGloo>(impl->store, world.rank,
                                                                  world.size, options);
    } catch (const std::exception& error) {
        std::string reason = error.what();
        throw CollectiveError("rank " + std::to_string(world.rank) +
                              ": connecting the Gloo process group through " + where +
                              " failed: " + reason.substr(0, reason.find('\n')));
    }
    // What the collective makes itself (figures, fingerprints) stays on the CPU under Gloo.
    return std::unique_ptr<Collective>(
        new Collective(std::move(impl), world.rank, world.size, c10::Device(c10::kCPU), "gloo"));
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
        impl_->wait(impl_->group->allreduce(buffer), "a gradient all-reduce");
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
    std::vector<at::Tensor> buffer = {
        onBackend(at::tensor(values, at::TensorOptions().dtype(at::kDouble)))};
    impl_->wait(impl_->group->allreduce(buffer), "an all-reduce of step figures");
    const auto host = buffer.front().cpu();
    const auto* summed = host.data_ptr<double>();
    for (std::size_t i = 0; i < values.size(); ++i) {
        values[i] = summed[i];
    }
    return values;
}

std::vector<at::Tensor> Collective::allGather(const at::Tensor& tensor) {
    // Given on the CPU (figures, random states), returned on the CPU, whatever the backend.
    std::vector<at::Tensor> input = {onBackend(tensor).contiguous()};
    std::vector<std::vector<at::Tensor>> output(1);
    for (int r = 0; r < size_; ++r) {
        output.front().push_back(at::empty_like(input.front()));
    }
    impl_->wait(impl_->group->allgather(output, input), "an all-gather");
    std::vector<at::Tensor> result;
    for (const auto& gathered : output.front()) {
        result.push_back(gathered.to(tensor.device()));
    }
    return result;
}

void Collective::send(const at::Tensor& tensor, int to) {
    std::vector<at::Tensor> buffer = {tensor.contiguous()};
    impl_->wait(impl_->group->send(buffer, to, /*tag=*/0), "sending optimizer state");
}

void Collective::receive(at::Tensor& tensor, int from) {
    std::vector<at::Tensor> buffer = {tensor};
    impl_->wait(impl_->group->recv(buffer, from, /*tag=*/0), "receiving optimizer state");
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
    impl_->wait(impl_->group->broadcast(buffer, options), root == 0
                                                              ? "the broadcast of rank 0's weights"
                                                              : "the broadcast of updated weights");
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
