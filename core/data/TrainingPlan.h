#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "data/Dataset.h"

namespace bert {

/// Something about the chosen columns that is probably a mistake, said before Start.
struct PlanWarning {
    enum class Kind {
        OneClass,            ///< the label column holds a single value: nothing to learn
        LabelIsText,         ///< the label column is also a text column: the answer is in the input
        LabelLooksUnique,    ///< nearly one value per row (an id or a text column?): count values
        HeadHasOtherLabels,  ///< the model's trained head has another number of labels: made anew
    };
    Kind kind = Kind::OneClass;
    std::size_t count = 0;                 ///< classes in the column
    std::size_t rows = 0;                  ///< examples
    std::vector<std::string> modelLabels;  ///< HeadHasOtherLabels: the head's labels
};

/// What a run of this dataset will train on, in one line: the columns, the classes with their
/// counts, and the examples for training and validation (the stratified split Start makes).
struct TrainingPlan {
    std::string labelColumn;
    std::vector<std::string> textColumns;
    std::vector<std::pair<std::string, std::size_t>> classes;  ///< in label-map order
    std::size_t trainExamples = 0;
    std::size_t validationExamples = 0;
    std::vector<PlanWarning> warnings;
};

/// The plan for examples read with columns, split with validationFraction as a run splits
/// them (the sizes do not depend on the seed). modelLabels: the labels of the model's head (from
/// its config.json), empty when it has none or only transformers' defaults (LABEL_0, LABEL_1, ...).
TrainingPlan planTraining(const ExampleSet& examples, const ColumnSpec& columns,
                          double validationFraction, const std::vector<std::string>& modelLabels);

/// Whether labels are transformers' placeholders (LABEL_0, LABEL_1, ...): a head not trained for
/// any named task.
bool arePlaceholderLabels(const std::vector<std::string>& labels);

}  // namespace bert
