#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "task/token/EntitySpan.h"

namespace bert {

/// Which entity type the model gave each true entity, as NER tools tabulate it (issue 29,
/// point 6). Entities are matched by their exact boundaries, so that the table explains the
/// entity-level (seqeval) scores rather than token counts:
/// - a true entity and a predicted one over exactly the same words count in
///   counts[true type][predicted type]: the diagonal are the correct entities (equal to
///   seqeval's true positives per type), the rest right boundaries with the wrong type;
/// - a true entity with no predicted entity over the same words counts in missed[true type];
/// - a predicted entity over words no true entity spans exactly counts in
///   spurious[predicted type].
/// A boundary error (PER over words 1-2 predicted as PER over word 1) is therefore one missed
/// and one spurious entity, as it is one false negative and one false positive for seqeval.
/// So each true type's row plus its missed count is its support, and each predicted type's
/// column plus its spurious count is its number of predicted entities.
struct EntityConfusion {
    /// The entity types of the truth and the predictions, sorted (the entity report's types).
    std::vector<std::string> types;
    /// [true type][predicted type], indices into types.
    std::vector<std::vector<std::size_t>> counts;
    std::vector<std::size_t> missed;    ///< per true type
    std::vector<std::size_t> spurious;  ///< per predicted type

    bool operator==(const EntityConfusion& other) const = default;
};

/// The confusion of predicted entities against true ones, in one position space (spans of
/// different sentences never share positions). A span listed twice counts once, as seqeval's
/// sets count it.
EntityConfusion entityConfusion(const std::vector<EntitySpan>& truth,
                                const std::vector<EntitySpan>& predicted);

}  // namespace bert
