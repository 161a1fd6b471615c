#pragma once

#include <cstddef>
#include <functional>

#include "train/TrainingConfig.h"

namespace bert::ui {

/// The process's time so far: wall-clock and CPU (user and system, every thread), in seconds.
struct CpuTimes {
    double wall = 0.0;
    double cpu = 0.0;
};
CpuTimes processCpuTimes();

/// The evaluations a run still makes after `step`, up to totalSteps, as the trainer schedules
/// them (Trainer::trainLoop and evaluatesInsideEpoch): at every epoch's end, inside epochs every
/// evalEverySteps steps or at evalsPerEpoch even points, and after the last step. windows: the
/// optimizer steps of one epoch.
std::size_t evaluationsAfter(const TrainingConfig& config, std::size_t windows, std::size_t step,
                             std::size_t totalSteps);

/// The optimizer steps of one epoch: the training examples over the examples of a step on
/// every process.
std::size_t stepsPerEpoch(const TrainingConfig& config, std::size_t trainExamples);

/// A run's time left, counting its evaluations (issue 27: the bar sat at "33% step 10/30" for
/// 46 s while 609 e-mails were evaluated, and the ETA knew nothing of it): the steps left at the
/// measured time per step, evaluations excluded, plus the evaluations left at the measured time
/// per evaluation (before the first one, its batches at the pace of the evaluation in progress,
/// or a third of a training step per example before any batch). Times are the caller's, in
/// seconds: a test gives its own.
class RunClock {
public:
    void start(const TrainingConfig& config, std::size_t trainExamples,
               std::size_t validationExamples, std::size_t firstStep, std::size_t totalSteps,
               double now);
    void stepDone(std::size_t step, double now);
    /// An evaluation's progress: 0 of N when it begins, then after each batch.
    void evaluationProgress(std::size_t done, std::size_t batches, double now);
    void evaluationDone(double now);

    bool evaluating() const { return evaluating_; }
    /// Seconds left, or a negative number before anything was measured.
    double remaining(double now) const;
    /// Evaluations still to come after the current step (the one running not counted).
    std::size_t evaluationsLeft() const;

private:
    TrainingConfig config_;
    std::size_t windows_ = 1;
    std::size_t validationExamples_ = 0;
    std::size_t firstStep_ = 0;
    std::size_t step_ = 0;
    std::size_t totalSteps_ = 0;
    double started_ = 0.0;
    double evaluationSeconds_ = 0.0;  ///< spent in finished evaluations
    std::size_t evaluations_ = 0;     ///< finished since start
    bool evaluating_ = false;
    double evaluationStarted_ = 0.0;
    std::size_t batchesDone_ = 0;
    std::size_t batches_ = 0;
};

}  // namespace bert::ui
