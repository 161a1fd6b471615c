#include <cstdio>

#include "train/OptionBinding.h"

// The options for imbalanced classes and calibrated probabilities: class weighting and focal
// loss (task/TaskObjective.h ObjectiveOptions), balanced sampling (data/Sampler.h), temperature
// scaling (task/TemperatureScaling.h). Part of the option table,
// declared here to keep TrainingOptionTable.cpp to one screenful per group;
// buildTrainingOptionTable adds them after the evaluation schedule. scripts/update_translations.sh
// scans this file too.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace bert {

void addLossOptions(std::vector<OptionDescriptor>& table) {
    using K = OptionKind;
    using G = OptionGroup;
    table.push_back(bindField(
        {.key = "class_weighting",
         .flag = "--class-weighting",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Class weighting"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "balanced: each class's examples weigh N / (classes x its count) in the loss, so a "
             "rare class is not ignored; off: every example weighs the same."),
         .group = G::Optimisation,
         .kind = K::Choice,
         .choices = {{static_cast<int>(ClassWeighting::Off), "off",
                      QT_TRANSLATE_NOOP("TrainingOptions", "off")},
                     {static_cast<int>(ClassWeighting::Balanced), "balanced",
                      QT_TRANSLATE_NOOP("TrainingOptions", "balanced")}}},
        &TrainingConfig::classWeighting));
    table.push_back(bindField(
        {.key = "focal_gamma",
         .flag = "--focal-gamma",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Focal loss gamma"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "0: the plain loss. Above 0, focal loss: the loss of each example (each label, "
             "each tag) is scaled by (1 - p)^gamma, p the probability the model gives its true "
             "class, so what the model already gets right counts less and hard or rare examples "
             "more (Lin et al. 2017 use 2; with balanced class weighting it is their "
             "alpha-balanced form). Not for regression."),
         .group = G::Optimisation,
         .kind = K::Real,
         .minimum = 0.0,
         .maximum = 10.0,
         .decimals = 2,
         .summary =
             [](const TrainingConfig& config) {
                 if (config.focalGamma <= 0.0) {
                     return std::string();
                 }
                 char gamma[32];
                 std::snprintf(gamma, sizeof gamma, "%g", config.focalGamma);
                 return "focal loss (gamma " + std::string(gamma) + ")";
             }},
        &TrainingConfig::focalGamma));
    table.push_back(bindField(
        {.key = "balanced_sampling",
         .flag = "--balanced-sampling",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Balanced sampling"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Single-label: each epoch draws as many examples as the training set holds, with "
             "replacement, every class equally likely (PyTorch's WeightedRandomSampler with "
             "weights 1 / the class's count): a rare class is seen as often as a common one, "
             "its examples repeated, a common class's partly left out."),
         .group = G::Optimisation,
         .kind = K::Flag,
         .summary = whenOn(&TrainingConfig::balancedSampling, "balanced sampling")},
        &TrainingConfig::balancedSampling));
    table.push_back(bindField(
        {.key = "temperature_scaling",
         .flag = "--temperature-scaling",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Temperature scaling"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Single-label: divide the logits by one temperature fitted on the validation set "
             "(the negative log-likelihood, minimised with L-BFGS: Guo et al. 2017), so that a "
             "probability of 0.8 is right about 8 times in 10. Predict, Try it and exports "
             "apply it; the predicted labels stay the same. Every evaluation measures the "
             "calibration (ECE, Model quality) either way."),
         .group = G::Optimisation,
         .kind = K::Flag,
         .summary = whenOn(&TrainingConfig::temperatureScaling, "temperature scaling")},
        &TrainingConfig::temperatureScaling));
    table.push_back(bindField(
        {.key = "rare_label_share",
         .flag = "--rare-share",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Rare class under (%)"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "A class (a label) with less than this share of the examples is rare: the Dataset "
             "tab and the run's warnings name it with what weighs it up (class weighting, focal "
             "loss, balanced sampling). Changes no training."),
         .group = G::Optimisation,
         .kind = K::Real,
         .minimum = 0.1,
         .maximum = 50.0,
         .decimals = 1},
        &TrainingConfig::rareLabelShare));
}

}  // namespace bert
