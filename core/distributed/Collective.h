#pragma once

// Data parallel on PyTorch's own c10d: a TCPStore for the rendezvous (rank 0 hosts it) and a
// ProcessGroupGloo for the collectives (ProcessGroupNCCL for CUDA tensors where built with
// NCCL, with a Gloo group beside it for the host's figures), launched the way torchrun and
// Slurm launch jobs. There is no C++ DistributedDataParallel, so the gradient reduction is ours
// (Trainer), on these collectives. Every collective has a timeout: a rank that died or hangs
// ends the others with a CollectiveError (exit code 3), never a hang.
//
// What NCCL can promise of that: its collectives run on the GPU and are bounded by NCCL's own
// timeout (the watchdog thread), ncclTimeout(): half the collective timeout. A peer that dies
// while the survivors' GPUs wait in its all-reduce leaves them waiting that long: their next
// read of a figure (data/HostReads.h) waits for the GPU, which waits for NCCL, until the watchdog
// aborts the communicators (prepareNcclErrorHandling has it abort them instead of killing the
// process) and the read fails. A peer that dies between collectives is met sooner, by the Gloo
// agreement every step makes on the host (out-of-memory flag, tokens), within the collective
// timeout. Either way the survivors end with the CollectiveError and exit 3, as under Gloo; the
// NCCL wait is the shorter so that the GPU's side gives up before the host's. It cannot promise
// that when the watchdog itself hangs (an ncclCommAbort stuck in the driver): PyTorch's heartbeat
// monitor then aborts the process after TORCH_NCCL_HEARTBEAT_TIMEOUT_SEC with its own message
// (signal 6); nor when the GPU is lost (Xid errors), where CUDA fails the process first.
//
// Thread contract: one Collective per process, used from the training thread only.

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <ATen/core/Tensor.h>
#include <c10/core/Device.h>

#include "Error.h"

namespace bert {

/// torchrun's default rendezvous port.
inline constexpr int kDefaultMasterPort = 29500;
/// How long a collective (or the rendezvous) waits for the slowest rank before it fails.
inline constexpr std::chrono::seconds kDefaultCollectiveTimeout{300};
/// kDefaultCollectiveTimeout, or BERT_STUDIO_COLLECTIVE_TIMEOUT_S (1 to 86400 seconds) where set:
/// a cluster whose nodes start slowly, or tests. Throws InputError for another value.
std::chrono::milliseconds collectiveTimeout();
/// NCCL's own timeout for a collective timeout: half of it (at least 1 s), so that a GPU waiting
/// for a dead peer gives up before the host's Gloo agreement would.
std::chrono::milliseconds ncclTimeout(std::chrono::milliseconds collective);
/// `--nproc processes` on a CUDA device of a node that shows visibleDevices GPUs: throws InputError
/// before any worker starts when NCCL would run more ranks than GPUs (two ranks on one GPU: NCCL
/// fails at the first collective, "Duplicate GPU detected"), naming Gloo
/// (BERT_STUDIO_DISTRIBUTED_BACKEND=gloo) for a rehearsal of several ranks on one GPU. Nothing
/// without NCCL, under Gloo, or without a GPU (the run then says there is none).
void refuseMoreRanksThanGpus(int processes, int visibleDevices);
/// PyTorch DDP's gradient buckets: the first small, so reduction can start early, then 25 MiB.
inline constexpr std::int64_t kFirstBucketBytes = std::int64_t{1} << 20;
inline constexpr std::int64_t kBucketBytes = std::int64_t{25} << 20;

/// A collective failed: a rank died, timed out, or was started differently. Exit code 3.
class CollectiveError : public EngineError {
public:
    explicit CollectiveError(std::string problem) : EngineError(std::move(problem)) {}
};

/// Where this process stands in a data-parallel run.
struct WorldInfo {
    int rank = 0;
    int size = 1;
    int localRank = 0;
    std::string masterAddress = "127.0.0.1";
    int masterPort = kDefaultMasterPort;

    bool distributed() const { return size > 1; }

    /// This rank's device for a run on device ("cpu", "cuda" or "cuda:N"): the CPU stays; on
    /// CUDA one GPU per rank, LOCAL_RANK modulo the devices the process sees, so that a launch
    /// that shows each task only its own GPU (Slurm's --gpus-per-task, CUDA_VISIBLE_DEVICES set
    /// per rank) uses cuda:0 on every rank instead of naming a device that does not exist.
    std::string deviceForRank(const std::string& device, int visibleDevices) const;

    /// torchrun's RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT; else Slurm's
    /// SLURM_PROCID, SLURM_NTASKS, SLURM_LOCALID with MASTER_ADDR (or SLURM_LAUNCH_NODE_IPADDR)
    /// and MASTER_PORT; else one process. Throws InputError for a value that is not a number or
    /// out of range, naming the variable.
    static WorldInfo fromEnvironment();
};

/// Sets TORCH_NCCL_ASYNC_ERROR_HANDLING to 2 (CleanUpOnly: a failed or timed-out collective
/// aborts the communicators, and the process lives on to report it) unless the user set it;
/// returns the value in force. Collective::connect calls it before making a NCCL group.
std::string prepareNcclErrorHandling();

/// The collectives the trainer needs, over c10d's ProcessGroupGloo (CPU and CUDA tensors).
class Collective {
public:
    /// Rendezvous through a TCPStore at world.masterAddress:masterPort (rank 0 serves it) and
    /// connects the process group: ProcessGroupNCCL for a CUDA device where this build has NCCL
    /// (BERT_STUDIO_WITH_NCCL; the device is made current first), ProcessGroupGloo otherwise.
    /// Throws CollectiveError when the rendezvous fails or times out (a port in use, a rank that
    /// never came).
    static std::unique_ptr<Collective> connect(
        const WorldInfo& world, c10::Device device = c10::Device(c10::kCPU),
        std::chrono::milliseconds timeout = collectiveTimeout());
    /// "gloo" or "nccl".
    const std::string& backend() const { return backend_; }
    ~Collective();
    Collective(const Collective&) = delete;
    Collective& operator=(const Collective&) = delete;

    int rank() const { return rank_; }
    int size() const { return size_; }

    /// Sums the tensors across ranks, in place: flattened into buckets of the first 1 MiB, then
    /// 25 MiB each (tensors of one dtype and device per bucket), reduced, copied back.
    void allReduceSum(const std::vector<at::Tensor>& tensors);
    /// Sums plain numbers across ranks (exact for counts below 2^53).
    std::vector<double> sumNumbers(std::vector<double> values);
    /// root's tensors (one dtype and device), in place on every rank, in one flat buffer.
    void broadcastFrom(int root, const std::vector<at::Tensor>& tensors);
    /// rank 0's tensors, in place on every rank.
    void broadcastFromRoot(const std::vector<at::Tensor>& tensors) { broadcastFrom(0, tensors); }
    /// Every rank's values, by rank: result[r] is rank r's.
    std::vector<std::vector<std::int64_t>> allGather(const std::vector<std::int64_t>& values);
    /// Every rank's tensor (one shape and dtype on all ranks), by rank.
    std::vector<at::Tensor> allGather(const at::Tensor& tensor);
    /// Point to point: sends tensor to rank `to`, which receives it into a tensor of the same
    /// shape and dtype. Used to bring sharded optimizer state to rank 0 for a checkpoint.
    void send(const at::Tensor& tensor, int to);
    void receive(at::Tensor& tensor, int from);

private:
    class Impl;
    Collective(std::unique_ptr<Impl> impl, int rank, int size, c10::Device device,
               std::string backend);
    std::unique_ptr<Impl> impl_;
    int rank_;
    int size_;
    c10::Device device_;
    std::string backend_;
};

}  // namespace bert
