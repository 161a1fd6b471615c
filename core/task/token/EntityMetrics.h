#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "task/token/EntityConfusion.h"
#include "task/token/EntitySpan.h"
#include "task/token/TagScheme.h"

namespace bert {

/// How entities are read from tags, as seqeval 1.2.2 reads them.
enum class EntityMode {
    /// seqeval's default mode, compatible with CoNLL's conlleval.pl: lenient chunking, so an I-
    /// that begins a chunk (or follows another type) still starts an entity. Used for BIO.
    Conlleval,
    /// seqeval's mode="strict" with scheme=IOBES: only well-formed entities count (B- I-* E- of
    /// one type, or S-); a B- never closed by E- is no entity at all. Used for IOBES.
    StrictIobes,
};

/// The mode users of each scheme expect: conlleval's for BIO, strict for IOBES.
EntityMode entityModeFor(TagScheme scheme);

/// The entities one sentence's tags hold, in the mode's reading.
std::vector<EntitySpan> entitiesOf(const std::vector<std::string>& tags, EntityMode mode);

/// Precision, recall and F1 of one entity type (or of all, micro-averaged).
struct EntityScore {
    std::size_t truePositives = 0;  ///< predicted entities equal to a true one (type and span)
    std::size_t predicted = 0;      ///< entities in the predictions
    std::size_t support = 0;        ///< entities in the truth
    double precision = 0.0;         ///< truePositives / predicted; 0 when nothing was predicted
    double recall = 0.0;            ///< truePositives / support; 0 when there is no support
    double f1 = 0.0;                ///< 2PR / (P + R); 0 when both are 0
};

/// seqeval's classification report, and token accuracy.
struct EntityReport {
    EntityScore micro;  ///< all entities together: seqeval's f1_score(average="micro")
    /// Per type, for the types seen in the truth or the predictions (as seqeval lists them).
    std::map<std::string, EntityScore> perType;
    double macroPrecision = 0.0;  ///< unweighted means over perType (average="macro")
    double macroRecall = 0.0;
    double macroF1 = 0.0;
    double weightedPrecision = 0.0;  ///< means weighted by support (average="weighted")
    double weightedRecall = 0.0;
    double weightedF1 = 0.0;
    std::size_t tokens = 0;         ///< tags compared (every word of every sentence)
    std::size_t correctTokens = 0;  ///< tags predicted as they are in the truth
    double tokenAccuracy = 0.0;     ///< correctTokens / tokens: seqeval's accuracy_score
    /// Which type each true entity was given, from the same entities as the scores: its
    /// diagonal is perType's truePositives (task/token/EntityConfusion.h).
    EntityConfusion confusion;
};

/// Entity-level scores of predicted tags against true tags, equal to seqeval 1.2.2's
/// (classification_report's counts and averages, accuracy_score) in the given mode. Each
/// sentence of predicted must have the length of its true sentence; throws
/// std::invalid_argument otherwise, and InputError for a tag the strict mode cannot read.
EntityReport entityReport(const std::vector<std::vector<std::string>>& truth,
                          const std::vector<std::vector<std::string>>& predicted, EntityMode mode);

/// The same over per-token label ids (labels[id] is the tag), as evaluation has them after
/// alignLabels: positions whose true id is outside labels (-100: a later sub-word or a special
/// token) are dropped from truth and prediction alike, so each word counts once, as in
/// transformers' run_ner.py. A predicted id outside labels at a kept position throws
/// std::invalid_argument.
EntityReport entityReport(const std::vector<std::vector<std::int64_t>>& truth,
                          const std::vector<std::vector<std::int64_t>>& predicted,
                          const std::vector<std::string>& labels, EntityMode mode);

}  // namespace bert
