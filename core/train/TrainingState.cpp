#include "train/TrainingState.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <random>
#include <sstream>
#include <unistd.h>

#include <ATen/ATen.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/optim/adamw.h>

#include "Error.h"
#include "hf/ModelFolder.h"
#include "hf/SafeTensors.h"
#include "io/AtomicFile.h"
#include "io/CrashPoints.h"
#include "io/InputFile.h"
#include "io/Json.h"
#include "train/RandomState.h"

namespace bert {

namespace {

// Names of the entries in training_state.safetensors besides "<parameter>.exp_avg(_sq)".
constexpr const char* kCpuRngTensor = "rng.cpu";
constexpr const char* kDeviceRngTensor = "rng.device";
constexpr const char* kExpAvgSuffix = ".exp_avg";
constexpr const char* kExpAvgSqSuffix = ".exp_avg_sq";

TrainingState readTrainingState(const std::filesystem::path& file) {
    if (!std::filesystem::exists(file)) {
        throw InputError(file, "is missing: this folder is not a BERT Studio checkpoint");
    }
    return parseTrainingState(readInputFile(file, input_limits::kSmallJson), file);
}

std::string shapeText(const at::Tensor& tensor) {
    std::ostringstream text;
    text << tensor.sizes() << " " << tensor.scalar_type();
    return text.str();
}

/// The saved tensor for parameter, checked: defined, same shape, floating point.
at::Tensor checked(const SafeTensorsFile& file, const std::string& name,
                   const at::Tensor& parameter, const std::filesystem::path& path) {
    const auto saved = file.find(name);
    if (!saved.defined()) {
        throw InputError(path, "has no tensor \"" + name + "\"; it does not belong to this model");
    }
    if (saved.sizes() != parameter.sizes() || !at::isFloatingType(saved.scalar_type())) {
        throw InputError(path, "tensor \"" + name + "\" is " + shapeText(saved) +
                                   " where the model has " + shapeText(parameter) +
                                   "; it does not belong to this model");
    }
    return saved;
}

}  // namespace

std::filesystem::path checkpointFolder(const std::filesystem::path& runFolder, CheckpointKind kind,
                                       std::size_t step) {
    return runFolder / (kind == CheckpointKind::Best
                            ? std::string(checkpoint_files::kBestFolder)
                            : checkpoint_files::kFolderPrefix + std::to_string(step));
}

namespace {

/// Makes a folder's entries (a rename into it) durable: fsync of the folder itself.
void syncFolder(const std::filesystem::path& folder) {
    const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

[[noreturn]] void switchFailed(const std::filesystem::path& folder, int error) {
    throw StoreError(folder, std::string("could not be put in place: ") + std::strerror(error));
}

/// Puts the complete checkpoint in staging where folder is, in one step: a new folder is renamed
/// into place; an existing one (best/) is swapped with it atomically (RENAME_EXCHANGE) and the
/// old one, now in staging, removed. Where the file system cannot swap, the old one moves aside
/// to <folder>.previous first, which removeIncompleteCheckpoints puts back if a kill comes
/// between the two renames.
void switchInto(const std::filesystem::path& staging, const std::filesystem::path& folder) {
    const auto parent = folder.parent_path();
    if (!std::filesystem::exists(folder)) {
        if (::rename(staging.c_str(), folder.c_str()) != 0) {
            switchFailed(folder, errno);
        }
        syncFolder(parent);
        test_hooks::crashPoint();
        return;
    }
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, folder.c_str(), RENAME_EXCHANGE) == 0) {
        syncFolder(parent);
        test_hooks::crashPoint();
        std::error_code ignored;
        std::filesystem::remove_all(staging, ignored);  // the old checkpoint now
        test_hooks::crashPoint();
        return;
    }
    if (errno != EINVAL && errno != ENOSYS && errno != ENOTSUP) {
        switchFailed(folder, errno);
    }
    auto previous = folder;
    previous += checkpoint_files::kPreviousSuffix;
    std::error_code ignored;
    std::filesystem::remove_all(previous, ignored);
    if (::rename(folder.c_str(), previous.c_str()) != 0) {
        switchFailed(folder, errno);
    }
    test_hooks::crashPoint();
    if (::rename(staging.c_str(), folder.c_str()) != 0) {
        const int error = errno;
        ::rename(previous.c_str(), folder.c_str());
        switchFailed(folder, error);
    }
    syncFolder(parent);
    test_hooks::crashPoint();
    std::filesystem::remove_all(previous, ignored);
    test_hooks::crashPoint();
}

/// Whether name is a checkpoint folder's: best, or checkpoint-<step>.
bool isCheckpointName(const std::string& name) {
    if (name == checkpoint_files::kBestFolder) {
        return true;
    }
    const std::string prefix = checkpoint_files::kFolderPrefix;
    return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
           name.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
}

}  // namespace

void saveCheckpoint(const std::filesystem::path& folder, SequenceClassifier& model,
                    const Tokenizer& tokenizer, const torch::optim::AdamW& optimizer,
                    const c10::Device& device, const TrainingState& state,
                    const std::vector<std::pair<std::string, at::Tensor>>& extraTensors) {
    // Everything goes into a new folder beside the checkpoint, which is switched into place in
    // one step once complete: a kill at any moment leaves the old checkpoint or the new one,
    // never one step's weights beside another's state (issue 26).
    std::random_device entropy;
    auto staging = folder;
    staging += ".tmp-" + std::to_string(entropy());
    std::error_code error;
    std::filesystem::create_directories(staging, error);
    if (error) {
        throw StoreError(staging, "cannot be created: " + error.message());
    }
    struct RemoveOnFailure {
        std::filesystem::path folder;
        bool keep = false;
        ~RemoveOnFailure() {
            if (!keep) {
                std::error_code ignored;
                std::filesystem::remove_all(folder, ignored);
            }
        }
    } cleanup{staging};
    test_hooks::crashPoint();
    // The tokenizer's model_max_length is the length the run trains at, so that an exported
    // copy truncates in transformers as the run did (issue 27: a checkpoint that said 512 read
    // whole the e-mails the run had cut at 128).
    const auto maxLength = state.config.value("max_length", nlohmann::json());
    exportModelFolder(staging, model, tokenizer,
                      maxLength.is_number_unsigned() ? maxLength.get<std::size_t>() : 0);
    std::vector<std::pair<std::string, at::Tensor>> tensors;
    nlohmann::json adamSteps = nlohmann::json::object();
    for (const auto& item : model.named_parameters()) {
        const auto it = optimizer.state().find(item.value().unsafeGetTensorImpl());
        if (it == optimizer.state().end()) {
            continue;
        }
        const auto& adam = static_cast<const torch::optim::AdamWParamState&>(*it->second);
        tensors.emplace_back(item.key() + kExpAvgSuffix, adam.exp_avg());
        tensors.emplace_back(item.key() + kExpAvgSqSuffix, adam.exp_avg_sq());
        adamSteps[item.key()] = adam.step();
    }
    tensors.emplace_back(kCpuRngTensor, getRngState(c10::Device(c10::kCPU)));
    if (device.is_cuda()) {
        tensors.emplace_back(kDeviceRngTensor, getRngState(device));
    }
    tensors.insert(tensors.end(), extraTensors.begin(), extraTensors.end());
    writeSafeTensors(staging / checkpoint_files::kTrainingTensors, tensors);
    auto saved = state;
    saved.adamSteps = std::move(adamSteps);
    writeFileAtomically(staging / checkpoint_files::kTrainerState,
                        trainingStateToJson(saved).dump(2) + "\n");
    syncFolder(staging);
    switchInto(staging, folder);
    cleanup.keep = true;
}

std::string rankRngTensor(int rank, bool device) {
    return std::string(device ? kDeviceRngTensor : kCpuRngTensor) + ".rank-" + std::to_string(rank);
}

TrainingState loadCheckpoint(const std::filesystem::path& folder, SequenceClassifier& model,
                             torch::optim::AdamW& optimizer, const c10::Device& device, int rank) {
    const auto stateFile = folder / checkpoint_files::kTrainerState;
    auto state = readTrainingState(stateFile);
    const auto& adamSteps = state.adamSteps;
    const auto weightsFile = folder / "model.safetensors";
    const auto tensorsFile = folder / checkpoint_files::kTrainingTensors;
    const auto weights = readSafeTensors(weightsFile);
    const auto training = readSafeTensors(tensorsFile);

    // Check everything before changing anything.
    struct Restore {
        at::Tensor parameter;
        at::Tensor weight;
        at::Tensor expAvg;
        at::Tensor expAvgSq;
        std::int64_t step = 0;
    };
    std::vector<Restore> restores;
    for (const auto& item : model.named_parameters()) {
        Restore restore{
            item.value(), checked(weights, item.key(), item.value(), weightsFile), {}, {}, 0};
        const bool hasMoments = training.find(item.key() + kExpAvgSuffix).defined();
        if (hasMoments && item.value().requires_grad()) {
            restore.expAvg =
                checked(training, item.key() + kExpAvgSuffix, item.value(), tensorsFile);
            restore.expAvgSq =
                checked(training, item.key() + kExpAvgSqSuffix, item.value(), tensorsFile);
            const auto step = adamSteps.find(item.key());
            if (step == adamSteps.end() || !step->is_number_integer() ||
                step->get<std::int64_t>() < 0) {
                throw InputError(stateFile,
                                 "has no valid AdamW step count for \"" + item.key() + "\"");
            }
            restore.step = step->get<std::int64_t>();
        }
        restores.push_back(std::move(restore));
    }
    // A data-parallel rank continues its own random streams where the checkpoint has them.
    const auto ownOr = [&](bool onDevice, const char* shared) {
        if (rank >= 0 && training.find(rankRngTensor(rank, onDevice)).defined()) {
            return rankRngTensor(rank, onDevice);
        }
        return std::string(shared);
    };
    const auto cpuRngName = ownOr(false, kCpuRngTensor);
    const auto cpuRng = training.find(cpuRngName);
    const auto deviceRng = training.find(ownOr(true, kDeviceRngTensor));
    const auto expectedCpuRng = getRngState(c10::Device(c10::kCPU));
    if (cpuRng.defined() &&
        (cpuRng.sizes() != expectedCpuRng.sizes() || cpuRng.scalar_type() != at::kByte)) {
        throw InputError(tensorsFile, "random state \"" + cpuRngName + "\" is " +
                                          shapeText(cpuRng) + " where this LibTorch keeps " +
                                          shapeText(expectedCpuRng));
    }

    const torch::NoGradGuard noGrad;
    for (auto& restore : restores) {
        restore.parameter.copy_(restore.weight);
        if (restore.expAvg.defined()) {
            auto adam = std::make_unique<torch::optim::AdamWParamState>();
            adam->step(restore.step);
            adam->exp_avg(restore.expAvg.to(device, at::kFloat));
            adam->exp_avg_sq(restore.expAvgSq.to(device, at::kFloat));
            optimizer.state()[restore.parameter.unsafeGetTensorImpl()] = std::move(adam);
        }
    }
    if (cpuRng.defined()) {
        setRngState(c10::Device(c10::kCPU), cpuRng);
    }
    if (deviceRng.defined() && device.is_cuda()) {
        setRngState(device, deviceRng);
    }
    return state;
}

std::uintmax_t removeIncompleteCheckpoints(const std::filesystem::path& runFolder) {
    std::uintmax_t freed = 0;
    std::error_code error;
    // A kill between the two renames of a switch without RENAME_EXCHANGE: the old checkpoint
    // waits in <folder>.previous; it goes back unless the new one made it into place.
    std::vector<std::filesystem::path> previous;
    for (const auto& entry : std::filesystem::directory_iterator(runFolder, error)) {
        const auto name = entry.path().filename().string();
        const std::string suffix = checkpoint_files::kPreviousSuffix;
        if (name.size() > suffix.size() &&
            name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0) {
            previous.push_back(entry.path());
        }
    }
    for (const auto& old : previous) {
        const auto name = old.filename().string();
        const auto folder =
            runFolder /
            name.substr(0, name.size() - std::string(checkpoint_files::kPreviousSuffix).size());
        if (!std::filesystem::exists(folder / checkpoint_files::kTrainerState, error)) {
            std::filesystem::remove_all(folder, error);
            std::filesystem::rename(old, folder, error);
        }
    }
    std::vector<std::filesystem::path> doomed;
    for (const auto& entry : std::filesystem::directory_iterator(runFolder, error)) {
        const auto name = entry.path().filename().string();
        const bool checkpointFolder = entry.is_directory(error) && isCheckpointName(name);
        if (name.find(".tmp-") != std::string::npos ||
            name.find(checkpoint_files::kPreviousSuffix) != std::string::npos) {
            doomed.push_back(entry.path());  // a staging folder or file, or a replaced checkpoint
        } else if (checkpointFolder &&
                   !std::filesystem::exists(entry.path() / checkpoint_files::kTrainerState)) {
            doomed.push_back(entry.path());  // written in place by an older version
        } else if (checkpointFolder) {
            for (const auto& file : std::filesystem::directory_iterator(entry.path(), error)) {
                if (file.path().filename().string().find(".tmp-") != std::string::npos) {
                    doomed.push_back(file.path());
                }
            }
        }
    }
    for (const auto& path : doomed) {
        for (const auto& file : std::filesystem::recursive_directory_iterator(path, error)) {
            if (file.is_regular_file(error)) {
                freed += file.file_size(error);
            }
        }
        if (std::filesystem::is_regular_file(path, error)) {
            freed += std::filesystem::file_size(path, error);
        }
        std::filesystem::remove_all(path, error);
    }
    return freed;
}

std::filesystem::path latestCheckpoint(const std::filesystem::path& runFolder) {
    std::filesystem::path latest;
    std::size_t latestStep = 0;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(runFolder, error)) {
        // Only best/ and checkpoint-<step>/: a staging folder (.tmp-) may be complete, but it
        // was never switched into place.
        if (!isCheckpointName(entry.path().filename().string())) {
            continue;
        }
        nlohmann::json state;
        try {
            std::string problem;
            state = parseJson(readInputFile(entry.path() / checkpoint_files::kTrainerState,
                                            input_limits::kSmallJson),
                              problem);
        } catch (const InputError&) {
            continue;  // no trainer_state.json (or not a file): not a complete checkpoint
        }
        if (!state.is_object() ||
            !std::filesystem::is_regular_file(entry.path() / checkpoint_files::kTrainingTensors)) {
            continue;
        }
        const auto stepField = state.find("step");
        if (stepField == state.end() || !stepField->is_number_unsigned()) {
            continue;
        }
        const auto step = stepField->get<std::size_t>();
        const bool best = entry.path().filename() == checkpoint_files::kBestFolder;
        if (latest.empty() || step > latestStep || (step == latestStep && !best)) {
            latest = entry.path();
            latestStep = step;
        }
    }
    return latest;
}

}  // namespace bert
