// Entity-level scores as seqeval 1.2.2 computes them. Both readings of tags are transcribed
// from seqeval's source, condition by condition, rather than re-derived from the schemes' rules:
// users compare our figures with the ones their Python scripts print, and the two readings
// differ exactly on the ill-formed sequences an undertrained model predicts.
#include "task/token/EntityMetrics.h"

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <tuple>

#include "Error.h"
#include "text/Utf8.h"

namespace bert {

namespace {

// ---- seqeval's default mode (sequence_labeling.get_entities, conlleval-compatible) ----------

// A tag as get_entities reads it: its first character, and the rest after the first '-' ("_"
// when empty). "B-PER" is ('B', "PER"), "O" is ('O', "_"), "PER" is ('P', "ER").
struct LenientTag {
    char32_t prefix = U'O';
    std::string type = "_";
};

LenientTag lenientTag(std::string_view tag) {
    if (tag.empty()) {
        throw InputError("an empty tag cannot be scored");
    }
    LenientTag parsed;
    std::size_t pos = 0;
    parsed.prefix = utf8::decode(tag, pos);
    std::string_view rest = tag.substr(pos);
    const std::size_t dash = rest.find('-');
    if (dash != std::string_view::npos) {
        rest = rest.substr(dash + 1);
    }
    parsed.type = rest.empty() ? std::string("_") : std::string(rest);
    return parsed;
}

bool endOfChunk(char32_t prevTag, char32_t tag, const std::string& prevType,
                const std::string& type) {
    bool end = false;
    end |= prevTag == U'E';
    end |= prevTag == U'S';
    end |= prevTag == U'B' && (tag == U'B' || tag == U'S' || tag == U'O');
    end |= prevTag == U'I' && (tag == U'B' || tag == U'S' || tag == U'O');
    end |= prevTag != U'O' && prevTag != U'.' && prevType != type;
    return end;
}

bool startOfChunk(char32_t prevTag, char32_t tag, const std::string& prevType,
                  const std::string& type) {
    bool start = false;
    start |= tag == U'B';
    start |= tag == U'S';
    start |= prevTag == U'E' && (tag == U'E' || tag == U'I');
    start |= prevTag == U'S' && (tag == U'E' || tag == U'I');
    start |= prevTag == U'O' && (tag == U'E' || tag == U'I');
    start |= tag != U'O' && tag != U'.' && prevType != type;
    return start;
}

// get_entities over a stream of tags; positions are the stream's.
class LenientChunker {
public:
    // Feeds the tag at position `at`; a finished chunk goes to out as (type, first, last).
    void push(const LenientTag& tag, std::size_t at, std::vector<EntitySpan>& out) {
        if (endOfChunk(prevTag_, tag.prefix, prevType_, tag.type)) {
            out.push_back({prevType_, begin_, at});  // at - 1 is the chunk's last position
        }
        if (startOfChunk(prevTag_, tag.prefix, prevType_, tag.type)) {
            begin_ = at;
        }
        prevTag_ = tag.prefix;
        prevType_ = tag.type;
    }

private:
    char32_t prevTag_ = U'O';
    std::string prevType_;  // get_entities starts with prev_type = ''
    std::size_t begin_ = 0;
};

// ---- seqeval's strict mode with scheme=IOBES (scheme.Tokens.entities) ------------------------

struct StrictTag {
    char prefix = 'O';
    std::string type = "_";
};

StrictTag strictTag(std::string_view tag) {
    if (tag.empty()) {
        throw InputError("an empty tag cannot be scored");
    }
    const char prefix = tag[0];
    if (prefix != 'I' && prefix != 'O' && prefix != 'B' && prefix != 'E' && prefix != 'S') {
        throw InputError("the tag \"" + std::string(tag) +
                         "\" is not an IOBES tag (its prefix must be I, O, B, E or S)");
    }
    std::string_view type = tag.substr(1);
    while (!type.empty() && type.front() == '-') {
        type.remove_prefix(1);
    }
    while (!type.empty() && type.back() == '-') {
        type.remove_suffix(1);
    }
    return {prefix, type.empty() ? std::string("_") : std::string(type)};
}

bool isStart(const StrictTag& current) {
    return current.prefix == 'B' || current.prefix == 'S';
}

bool isInside(const StrictTag& previous, const StrictTag& current) {
    return (previous.prefix == 'B' || previous.prefix == 'I') &&
           (current.prefix == 'I' || current.prefix == 'E') && previous.type == current.type;
}

// Tokens.entities for one sentence, positions offset by `offset`.
void strictEntities(const std::vector<StrictTag>& tags, std::size_t offset,
                    std::vector<EntitySpan>& out) {
    static const StrictTag outside;
    const std::size_t n = tags.size();
    auto at = [&](std::size_t i) -> const StrictTag& { return i < n ? tags[i] : outside; };
    std::size_t i = 0;
    while (i < n + 1) {
        const StrictTag& token = at(i);
        if (isStart(token)) {
            std::size_t end = i + 1;
            const StrictTag* previous = &token;
            while (end < n + 1 && isInside(*previous, at(end))) {
                previous = &at(end);
                ++end;
            }
            // _is_end: the entity's last token is E- or S-.
            if (at(end - 1).prefix == 'E' || at(end - 1).prefix == 'S') {
                out.push_back({token.type, offset + i, offset + end});
            }
            i = end;
        } else {
            ++i;
        }
    }
}

// ---- counting ----------------------------------------------------------------------------------

double divideOrZero(std::size_t numerator, std::size_t denominator) {
    return denominator == 0 ? 0.0
                            : static_cast<double>(numerator) / static_cast<double>(denominator);
}

void finishScore(EntityScore& score) {
    score.precision = divideOrZero(score.truePositives, score.predicted);
    score.recall = divideOrZero(score.truePositives, score.support);
    const double denominator = score.precision + score.recall;
    // seqeval: (1 + beta^2) * P * R / (beta^2 * P + R), the denominator 1 where it is 0.
    score.f1 = 2.0 * score.precision * score.recall / (denominator == 0.0 ? 1.0 : denominator);
}

using Key = std::tuple<std::string, std::size_t, std::size_t>;

std::vector<Key> keysOf(const std::vector<EntitySpan>& entities) {
    std::vector<Key> keys;
    keys.reserve(entities.size());
    for (const auto& entity : entities) {
        keys.emplace_back(entity.type, entity.begin, entity.end);
    }
    std::sort(keys.begin(), keys.end());
    keys.erase(std::unique(keys.begin(), keys.end()), keys.end());
    return keys;
}

EntityReport reportOf(const std::vector<EntitySpan>& truth,
                      const std::vector<EntitySpan>& predicted) {
    EntityReport report;
    const auto trueKeys = keysOf(truth);
    const auto predictedKeys = keysOf(predicted);
    report.confusion = entityConfusion(truth, predicted);
    for (const auto& key : trueKeys) {
        ++report.perType[std::get<0>(key)].support;
    }
    for (const auto& key : predictedKeys) {
        ++report.perType[std::get<0>(key)].predicted;
    }
    std::vector<Key> common;
    std::set_intersection(trueKeys.begin(), trueKeys.end(), predictedKeys.begin(),
                          predictedKeys.end(), std::back_inserter(common));
    for (const auto& key : common) {
        ++report.perType[std::get<0>(key)].truePositives;
    }
    std::size_t totalSupport = 0;
    for (auto& [type, score] : report.perType) {
        finishScore(score);
        report.micro.truePositives += score.truePositives;
        report.micro.predicted += score.predicted;
        report.micro.support += score.support;
        report.macroPrecision += score.precision;
        report.macroRecall += score.recall;
        report.macroF1 += score.f1;
        report.weightedPrecision += score.precision * static_cast<double>(score.support);
        report.weightedRecall += score.recall * static_cast<double>(score.support);
        report.weightedF1 += score.f1 * static_cast<double>(score.support);
        totalSupport += score.support;
    }
    finishScore(report.micro);
    // With no type at all seqeval's macro average is NaN (a mean of nothing); 0 here.
    if (!report.perType.empty()) {
        const auto types = static_cast<double>(report.perType.size());
        report.macroPrecision /= types;
        report.macroRecall /= types;
        report.macroF1 /= types;
    }
    // With no true entity seqeval's weighted average is 0 (its zero_division value).
    const double weight = static_cast<double>(totalSupport);
    report.weightedPrecision = totalSupport == 0 ? 0.0 : report.weightedPrecision / weight;
    report.weightedRecall = totalSupport == 0 ? 0.0 : report.weightedRecall / weight;
    report.weightedF1 = totalSupport == 0 ? 0.0 : report.weightedF1 / weight;
    return report;
}

// The entities of every sentence in one position space: seqeval's default mode flattens the
// sentences with an "O" after each (so a chunk never runs into the next sentence); the strict
// mode reads each alone. `tagAt(s, i)` gives sentence s's tag i.
template <typename TagAt>
std::vector<EntitySpan> allEntities(const std::vector<std::size_t>& lengths, EntityMode mode,
                                    TagAt&& tagAt) {
    std::vector<EntitySpan> entities;
    std::size_t offset = 0;
    if (mode == EntityMode::Conlleval) {
        LenientChunker chunker;
        const LenientTag outside;
        for (std::size_t s = 0; s < lengths.size(); ++s) {
            for (std::size_t i = 0; i < lengths[s]; ++i) {
                chunker.push(lenientTag(tagAt(s, i)), offset + i, entities);
            }
            chunker.push(outside, offset + lengths[s], entities);
            offset += lengths[s] + 1;
        }
        chunker.push(outside, offset, entities);
        return entities;
    }
    std::vector<StrictTag> tags;
    for (std::size_t s = 0; s < lengths.size(); ++s) {
        tags.clear();
        for (std::size_t i = 0; i < lengths[s]; ++i) {
            tags.push_back(strictTag(tagAt(s, i)));
        }
        strictEntities(tags, offset, entities);
        offset += lengths[s] + 1;
    }
    return entities;
}

}  // namespace

EntityMode entityModeFor(TagScheme scheme) {
    return scheme == TagScheme::Iobes ? EntityMode::StrictIobes : EntityMode::Conlleval;
}

std::vector<EntitySpan> entitiesOf(const std::vector<std::string>& tags, EntityMode mode) {
    auto entities =
        allEntities({tags.size()}, mode,
                    [&](std::size_t, std::size_t i) -> const std::string& { return tags[i]; });
    return entities;
}

EntityReport entityReport(const std::vector<std::vector<std::string>>& truth,
                          const std::vector<std::vector<std::string>>& predicted, EntityMode mode) {
    if (truth.size() != predicted.size()) {
        throw std::invalid_argument("entityReport: " + std::to_string(truth.size()) +
                                    " true sentences but " + std::to_string(predicted.size()) +
                                    " predicted");
    }
    std::vector<std::size_t> lengths;
    EntityReport counts;
    for (std::size_t s = 0; s < truth.size(); ++s) {
        if (truth[s].size() != predicted[s].size()) {
            throw std::invalid_argument("entityReport: sentence " + std::to_string(s) + " has " +
                                        std::to_string(truth[s].size()) + " true tags but " +
                                        std::to_string(predicted[s].size()) + " predicted");
        }
        lengths.push_back(truth[s].size());
        counts.tokens += truth[s].size();
        for (std::size_t i = 0; i < truth[s].size(); ++i) {
            counts.correctTokens += truth[s][i] == predicted[s][i];
        }
    }
    auto report = reportOf(
        allEntities(
            lengths, mode,
            [&](std::size_t s, std::size_t i) -> const std::string& { return truth[s][i]; }),
        allEntities(lengths, mode, [&](std::size_t s, std::size_t i) -> const std::string& {
            return predicted[s][i];
        }));
    report.tokens = counts.tokens;
    report.correctTokens = counts.correctTokens;
    report.tokenAccuracy = divideOrZero(counts.correctTokens, counts.tokens);
    return report;
}

EntityReport entityReport(const std::vector<std::vector<std::int64_t>>& truth,
                          const std::vector<std::vector<std::int64_t>>& predicted,
                          const std::vector<std::string>& labels, EntityMode mode) {
    if (truth.size() != predicted.size()) {
        throw std::invalid_argument("entityReport: sentence counts differ");
    }
    const auto isLabel = [&](std::int64_t id) {
        return id >= 0 && static_cast<std::uint64_t>(id) < labels.size();
    };
    std::vector<std::vector<std::string>> trueTags(truth.size());
    std::vector<std::vector<std::string>> predictedTags(truth.size());
    for (std::size_t s = 0; s < truth.size(); ++s) {
        if (truth[s].size() != predicted[s].size()) {
            throw std::invalid_argument("entityReport: sentence " + std::to_string(s) +
                                        " has true and predicted ids of different lengths");
        }
        for (std::size_t i = 0; i < truth[s].size(); ++i) {
            if (!isLabel(truth[s][i])) {
                continue;  // -100: a later sub-word or a special token
            }
            if (!isLabel(predicted[s][i])) {
                throw std::invalid_argument("entityReport: predicted id " +
                                            std::to_string(predicted[s][i]) + " has no label");
            }
            trueTags[s].push_back(labels[static_cast<std::size_t>(truth[s][i])]);
            predictedTags[s].push_back(labels[static_cast<std::size_t>(predicted[s][i])]);
        }
    }
    return entityReport(trueTags, predictedTags, mode);
}

}  // namespace bert
