#include "train/OptionBinding.h"

// The options for texts longer than the max length (data/LongText.h): the strategy, its head
// tokens, its stride and its windows' pooling. Part of the option table, declared here to keep
// TrainingOptionTable.cpp to one screenful per group; buildTrainingOptionTable adds them after
// max length. scripts/update_translations.sh scans this file too.
#ifndef QT_TRANSLATE_NOOP
#define QT_TRANSLATE_NOOP(context, text) text
#endif

namespace bert {

void addLongTextOptions(std::vector<OptionDescriptor>& table) {
    using K = OptionKind;
    using G = OptionGroup;
    table.push_back(bindField(
        {.key = "long_text",
         .flag = "--long-text",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Long texts"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Texts longer than max length: truncate keeps the first tokens; head+tail keeps the "
             "first head tokens and the last ones; windows cut the whole text into overlapping "
             "windows, each an example with the text's label, and pool the windows' outputs "
             "into the text's prediction when evaluating and predicting (more examples to train "
             "on, the same memory per example)."),
         .group = G::Batching,
         .kind = K::Choice,
         .choices = {{static_cast<int>(LongTextMode::Truncate), "truncate",
                      QT_TRANSLATE_NOOP("TrainingOptions", "truncate")},
                     {static_cast<int>(LongTextMode::HeadTail), "head-tail",
                      QT_TRANSLATE_NOOP("TrainingOptions", "head+tail")},
                     {static_cast<int>(LongTextMode::Windows), "windows",
                      QT_TRANSLATE_NOOP("TrainingOptions", "windows")}},
         .summary =
             [](const TrainingConfig& c) {
                 switch (c.longText) {
                     case LongTextMode::HeadTail:
                         return "head+tail (" + std::to_string(c.headTokens) + " head tokens)";
                     case LongTextMode::Windows:
                         return "windows (stride " + std::to_string(c.windowStride) + ", " +
                                toString(c.windowPooling) + " pooling)";
                     case LongTextMode::Truncate:
                         break;
                 }
                 return std::string();
             }},
        &TrainingConfig::longText));
    table.push_back(
        bindField({.key = "head_tokens",
                   .flag = "--head-tokens",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Head tokens"),
                   .help = QT_TRANSLATE_NOOP("TrainingOptions",
                                             "Head+tail: tokens kept from the start of a long "
                                             "text; the rest of max length comes from its end."),
                   .group = G::Batching,
                   .kind = K::Count,
                   .minimum = 1,
                   .maximum = 65536,
                   .enabledWhen = "long_text=head-tail"},
                  &TrainingConfig::headTokens));
    table.push_back(
        bindField({.key = "window_stride",
                   .flag = "--window-stride",
                   .alias = "",
                   .label = QT_TRANSLATE_NOOP("TrainingOptions", "Window stride"),
                   .help = QT_TRANSLATE_NOOP(
                       "TrainingOptions",
                       "Windows: tokens each window shares with the one before (transformers' "
                       "stride); smaller than a window's text tokens."),
                   .group = G::Batching,
                   .kind = K::Count,
                   .minimum = 0,
                   .maximum = 65536,
                   .enabledWhen = "long_text=windows"},
                  &TrainingConfig::windowStride));
    table.push_back(bindField(
        {.key = "window_pooling",
         .flag = "--window-pooling",
         .alias = "",
         .label = QT_TRANSLATE_NOOP("TrainingOptions", "Window pooling"),
         .help = QT_TRANSLATE_NOOP(
             "TrainingOptions",
             "Windows: how a text's windows' logits become the text's: the task's own (the mean; "
             "for multi-label the largest per label), the mean, or the largest."),
         .group = G::Batching,
         .kind = K::Choice,
         .choices = {{static_cast<int>(WindowPooling::Task), "task",
                      QT_TRANSLATE_NOOP("TrainingOptions", "the task's")},
                     {static_cast<int>(WindowPooling::Mean), "mean",
                      QT_TRANSLATE_NOOP("TrainingOptions", "mean")},
                     {static_cast<int>(WindowPooling::Max), "max",
                      QT_TRANSLATE_NOOP("TrainingOptions", "max")}},
         .enabledWhen = "long_text=windows"},
        &TrainingConfig::windowPooling));
}

}  // namespace bert
