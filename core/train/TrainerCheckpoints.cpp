#include <filesystem>

#include "Error.h"
#include "distributed/Collective.h"
#include "io/CrashPoints.h"
#include "train/Trainer.h"

// The Trainer's checkpoints: writing one (rank 0 under data parallel, with what the other ranks
// gather into it) and continuing from one. The steps and the loop are in Trainer.cpp.

namespace bert {

void Trainer::saveCheckpoint(CheckpointKind kind, double metric) {
    if (!config_.saveCheckpoints) {
        return;
    }
    // Steps skipped on the device (fp16 overflow, a non-finite norm) are counted in the state
    // objects from here on.
    optimizer_->settleStepCounts();
    std::vector<std::pair<std::string, at::Tensor>> extra;
    std::vector<void*> borrowed;
    if (collective_ != nullptr) {
        // Every rank takes part (they all decide to checkpoint at the same steps); rank 0 writes.
        extra = gatherForCheckpoint(borrowed);
    }
    struct GiveBack {
        torch::optim::AdamW& optimizer;
        const std::vector<void*>& keys;
        ~GiveBack() {
            for (auto* key : keys) {
                optimizer.state().erase(key);
            }
        }
    } giveBack{*optimizer_, borrowed};
    if (checkpointFolder_.empty()) {
        return;
    }
    const auto folder = checkpointFolder(checkpointFolder_, kind, position_.step);
    observer_.beforeCheckpoint(position_.step);
    TrainingState state;
    state.kind = kind;
    state.position = position_;
    state.microBatch = microBatch_;
    state.evalBatch = evalBatch_;
    state.bestScore = bestScore_;
    state.bestLoss = bestLoss_;
    state.bestStep = bestStep_;
    state.evaluationsWithoutImprovement = evaluationsWithoutImprovement_;
    state.lossScale = scaler_ ? scaler_->scaleValue() : 0.0;
    state.growthTracker = scaler_ ? scaler_->growthTracker() : 0;
    state.metric = metric;
    state.config = config_.toJson();
    test_hooks::checkpointWriteStarts(toString(kind));
    bert::saveCheckpoint(folder, *bundle_.model, *bundle_.tokenizer, *optimizer_, device_, state,
                         extra);
    if (kind == CheckpointKind::Best) {
        bestCheckpoint_ = folder;
    } else {
        // Keep only the newest regular checkpoint (and best/): checkpoints are large.
        if (!lastCheckpoint_.empty() && lastCheckpoint_ != folder) {
            std::error_code ignored;
            std::filesystem::remove_all(lastCheckpoint_, ignored);
            test_hooks::crashPoint();
        }
        lastCheckpoint_ = folder;
    }
    test_hooks::checkpointWriteEnds();
    observer_.onCheckpoint({position_.step, kind, folder, metric});
    emit(EventKind::CheckpointSaved, toString(kind) + " checkpoint saved to " + folder.string(),
         {{"path", folder.string()},
          {"kind", toString(kind)},
          {"metric", metric},
          {"step", position_.step}});
}

void Trainer::resumeFrom(const std::filesystem::path& checkpoint) {
    const auto state = loadCheckpoint(checkpoint, *bundle_.model, *optimizer_, device_,
                                      collective_ != nullptr ? collective_->rank() : -1);
    dropOthersMoments();
    position_ = state.position;
    if (state.microBatch > 0) {
        microBatch_ = state.microBatch;
    }
    if (state.evalBatch > 0) {
        evalBatch_ = state.evalBatch;
    }
    bestScore_ = state.bestScore;
    bestLoss_ = state.bestLoss;
    bestStep_ = state.bestStep;
    evaluationsWithoutImprovement_ = state.evaluationsWithoutImprovement;
    if (scaler_) {
        scaler_->restore(state.lossScale > 0 ? state.lossScale : DynamicLossScaler::kInitialScale,
                         state.growthTracker);
    }
    lastCheckpoint_ = checkpoint;
}

}  // namespace bert
