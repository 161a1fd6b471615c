#include <cstdio>

#include "train/OptionBinding.h"

// The options that reshape a task's loss (task/TaskObjective.h ObjectiveOptions): class
// weighting and focal loss. Part of the option table, declared here to keep
// TrainingOptionTable.cpp to one screenful per group; buildTrainingOptionTable adds them after
// the evaluation schedule. scripts/update_translations.sh scans this file too.
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
}

}  // namespace bert
