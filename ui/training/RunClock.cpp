#include "training/RunClock.h"

#include <algorithm>
#include <chrono>
#include <sys/resource.h>

namespace bert::ui {

namespace {
// Forward only, no backward and no optimizer: an evaluated example costs about a third of a
// trained one. Used only until the first evaluation batch is timed.
constexpr double kEvaluationShareOfTraining = 1.0 / 3.0;
}  // namespace

CpuTimes processCpuTimes() {
    CpuTimes times;
    times.wall =
        std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
    rusage usage{};
    if (getrusage(RUSAGE_SELF, &usage) == 0) {
        auto seconds = [](const timeval& t) {
            return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
        };
        times.cpu = seconds(usage.ru_utime) + seconds(usage.ru_stime);
    }
    return times;
}

std::size_t stepsPerEpoch(const TrainingConfig& config, std::size_t trainExamples) {
    const std::size_t step = std::max<std::size_t>(
        1, config.stepExamples() * static_cast<std::size_t>(std::max(1, config.processes)));
    return std::max<std::size_t>(1, (trainExamples + step - 1) / step);
}

std::size_t evaluationsAfter(const TrainingConfig& config, std::size_t windows, std::size_t step,
                             std::size_t totalSteps) {
    windows = std::max<std::size_t>(1, windows);
    std::size_t count = 0;
    for (std::size_t s = step + 1; s <= totalSteps; ++s) {
        const std::size_t done = (s - 1) % windows + 1;  // windows done in its epoch
        if (done == windows || s == totalSteps) {
            ++count;  // the epoch's end, or the run's: evaluated once
            continue;
        }
        if (config.evalEverySteps > 0) {
            count += s % config.evalEverySteps == 0 ? 1 : 0;
            continue;
        }
        const std::size_t evals = config.evalsPerEpoch;
        if (evals > 1 && (done * evals) / windows > ((done - 1) * evals) / windows) {
            ++count;
        }
    }
    return count;
}

void RunClock::start(const TrainingConfig& config, std::size_t trainExamples,
                     std::size_t validationExamples, std::size_t firstStep, std::size_t totalSteps,
                     double now) {
    *this = RunClock();
    config_ = config;
    windows_ = stepsPerEpoch(config, trainExamples);
    validationExamples_ = validationExamples;
    firstStep_ = firstStep;
    step_ = firstStep;
    totalSteps_ = totalSteps;
    started_ = now;
}

void RunClock::stepDone(std::size_t step, double /*now*/) {
    step_ = step;
}

void RunClock::evaluationProgress(std::size_t done, std::size_t batches, double now) {
    if (!evaluating_) {
        evaluating_ = true;
        evaluationStarted_ = now;
    }
    batchesDone_ = done;
    batches_ = batches;
}

void RunClock::evaluationDone(double now) {
    if (evaluating_) {
        evaluationSeconds_ += now - evaluationStarted_;
        ++evaluations_;
    }
    evaluating_ = false;
    batchesDone_ = 0;
    batches_ = 0;
}

std::size_t RunClock::evaluationsLeft() const {
    return evaluationsAfter(config_, windows_, step_, totalSteps_);
}

double RunClock::remaining(double now) const {
    const std::size_t steps = step_ - firstStep_;
    if (steps == 0) {
        return -1.0;
    }
    const double inEvaluation = evaluating_ ? now - evaluationStarted_ : 0.0;
    const double training = std::max(0.0, now - started_ - evaluationSeconds_ - inEvaluation);
    const double perStep = training / static_cast<double>(steps);
    // An evaluation's duration: measured, else the pace of the one in progress, else a guess
    // from the training pace.
    double perEvaluation = 0.0;
    if (evaluations_ > 0) {
        perEvaluation = evaluationSeconds_ / static_cast<double>(evaluations_);
    } else if (evaluating_ && batchesDone_ > 0) {
        perEvaluation =
            inEvaluation / static_cast<double>(batchesDone_) * static_cast<double>(batches_);
    } else {
        const double perExample =
            perStep / static_cast<double>(std::max<std::size_t>(1, config_.stepExamples()));
        perEvaluation =
            perExample * kEvaluationShareOfTraining * static_cast<double>(validationExamples_);
    }
    double left = perStep * static_cast<double>(totalSteps_ - std::min(step_, totalSteps_)) +
                  perEvaluation * static_cast<double>(evaluationsLeft());
    if (evaluating_) {
        left += std::max(0.0, perEvaluation - inEvaluation);
    }
    return left;
}

}  // namespace bert::ui
