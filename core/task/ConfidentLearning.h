#pragma once

// Which examples' given labels a model's out-of-fold probabilities find unlikely: confident
// learning as Northcutt, Jiang and Chuang define it ("Confident Learning: Estimating Uncertainty
// in Dataset Labels", JAIR 2021) and the cleanlab package computes it in
// cleanlab.filter.find_label_issues with its defaults (filter_by "prune_by_noise_rate",
// frac_noise 1, min_examples_per_class 1, issues ranked by self-confidence). The definitions,
// in order:
//
//  1. Each class's threshold t_j: the mean probability of j over the examples labelled j (the
//     paper's eq. 2), at least 2e-6; 2 for a class no example is labelled with, so that no
//     example is counted as truly of it.
//  2. The counted joint C[given][true]: an example is confident of class j when p_j >= t_j -
//     1e-6; one confident class is its true class, several its likeliest of all (argmax, the
//     lowest class on a tie), none leaves it out. Each diagonal cell is at least 1.
//  3. The confident joint: C's rows scaled to the number of examples labelled with each class,
//     the whole to the number of examples, then rounded to counts keeping each row's total
//     (cleanlab's calibration, the paper's eq. 3).
//  4. The prune counts: the confident joint with each diagonal cell at least 1 (what is added
//     taken evenly from the row's other non-zero cells, none below 0, truncated to counts).
//  5. Pruning by noise rate: of the examples labelled k (when there are more than one), for each
//     other class j the prune count [k][j] with the largest p_j - p_k are flagged.
//  6. A flagged example stays an issue only where another class beats its given label's
//     probability + 1e-6.
//  7. Issues are ranked by self-confidence, the probability of the given label, lowest first.
//
// Multi-label: each label is its own two-class problem (absent 0, present 1; probabilities
// 1 - p and p), as cleanlab does it; an example is an issue when any of its labels is, ranked by
// cleanlab's multi-label score: its labels' self-confidences sorted high to low, folded by an
// exponential moving average with weight 0.8 on each next one.
//
// Ties: where cleanlab sorts with numpy's default sort, whose order of equal keys depends on
// the CPU (its SIMD sort on AVX-512 keeps no order), ties here go by position as a stable sort
// keeps them: issues of equal quality and examples of equal margin by row, and the rounding of
// step 3 (which raises the cells with the largest remainders, lowers those with the smallest)
// as numpy's stable argsort would order them. The parity test's data is checked tie-free.
// Sums are numpy's (pairwise, 8 accumulators), so that the thresholds are the same doubles.
//
// The reference is tests/parity/confident_learning.py (cleanlab 2.9.0, for tests only; no code
// of cleanlab's is used here). No LibTorch: the studio's and the command line's label-issue
// reports call these on probabilities an evaluation gathered.

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bert {

/// An example whose given label confident learning finds unlikely.
struct LabelIssue {
    std::size_t example = 0;  ///< its row in the probabilities
    /// Single-label: the class it is labelled with. Multi-label: the label most at fault, the
    /// one of its flagged labels with the lowest self-confidence (the lowest index on a tie).
    std::int64_t given = 0;
    /// Single-label: the class the model finds likeliest (argmax of its row, the lowest class on
    /// a tie); never the given one. Multi-label: what the model says of the label `given`: 1
    /// present, 0 absent (p > 1/2), always the opposite of the truth.
    std::int64_t likely = 0;
    /// The label quality score issues are ranked by (lowest first). Single-label: the
    /// self-confidence, the probability of the given label. Multi-label: cleanlab's score of the
    /// example, the moving average of its labels' self-confidences (step 7, multi-label).
    double quality = 0.0;
    /// Multi-label: every label flagged for the example, ascending; empty for single-label.
    std::vector<std::int64_t> labels;
};

/// What confident learning found, with the counts it found it by.
///
/// Single-label, K classes: thresholds has K entries, each matrix K rows of K, indexed
/// [given][true]. Multi-label, L labels: each label's two-class problem in turn, so thresholds
/// has 2L entries (label c's absent and present thresholds at 2c and 2c + 1, cleanlab's (L, 2)
/// array row by row) and each matrix 2L rows of 2 (label c's 2 x 2 joint in rows 2c, 2c + 1:
/// given absent, given present; cleanlab's (L, 2, 2) array).
struct LabelIssues {
    std::vector<double> thresholds;  ///< per class t_j (step 1)
    /// The counted joint before calibration (step 2; cleanlab's compute_confident_joint with
    /// calibrate=False).
    std::vector<std::vector<std::int64_t>> countedJoint;
    /// The calibrated confident joint find_label_issues prunes by (step 3; cleanlab's
    /// compute_confident_joint with its default calibrate=True).
    std::vector<std::vector<std::int64_t>> confidentJoint;
    /// How many of the examples labelled [given] to flag as truly [true] (step 4; the transpose
    /// of cleanlab's prune count matrix). The diagonal is the number kept.
    std::vector<std::vector<std::int64_t>> pruneCounts;
    std::vector<LabelIssue> issues;  ///< ranked as cleanlab ranks them, lowest quality first
};

/// Single-label: labels[i] in [0, classes), probabilities row-major [labels.size() x classes],
/// out of fold, each row summing to 1. A class no example is labelled with is allowed (its
/// threshold is 2 and its joint's row 0), as in cleanlab. Throws InputError for no examples,
/// fewer than 2 classes, or fewer than 2 of them among the labels (cleanlab's own refusal,
/// which it waives only where every label is 0), a label out of range, probabilities of the
/// wrong size, not finite, outside [0, 1] (cleanlab's tolerance of 1e-6) or a row whose sum is
/// not 1 within 1e-3.
LabelIssues findLabelIssues(const std::vector<std::int64_t>& labels,
                            const std::vector<double>& probabilities, std::size_t classes);

/// Multi-label: truth row-major [n x labels] of 0/1, probabilities [n x labels] of independent
/// sigmoids; the issues' examples are cleanlab's find_label_issues(..., multi_label=True), in
/// its order. A label no example has, or every example has, is its own two-class problem with a
/// missing class like any other (cleanlab refuses the second and a set where no example has any
/// label). Throws InputError for no examples, fewer than 2 labels, sizes that disagree, truth
/// other than 0 and 1, probabilities not finite or outside [0, 1].
LabelIssues findMultiLabelIssues(const std::vector<std::uint8_t>& truth,
                                 const std::vector<double>& probabilities, std::size_t labels);

}  // namespace bert
