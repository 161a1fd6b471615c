#pragma once

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/TaggedReader.h"

namespace bert {

/// How entity tags are written. BIO (IOB2): B- begins an entity, I- continues it, O is outside.
/// IOBES adds E- (the last word of an entity of several) and S- (an entity of one word).
enum class TagScheme { Bio, Iobes };

/// "BIO" or "IOBES".
std::string tagSchemeName(TagScheme scheme);

/// A tag split into its prefix ('O', 'B', 'I', 'E' or 'S') and entity type ("" for O).
struct ParsedTag {
    char prefix = 'O';
    std::string type;
};

/// "O", or one of B/I/E/S, a '-' and a non-empty type ("B-PER", "I-ORG-LOC" is type
/// "ORG-LOC"); nullopt for anything else ("B", "PER", "b-per", "U-PER", "I_PER", a tag holding
/// a space or a control character).
std::optional<ParsedTag> parseTag(std::string_view tag);

/// What a tagged data set holds, once its tags are checked.
struct TagSummary {
    TagScheme scheme = TagScheme::Bio;
    /// The entity types, sorted by their bytes.
    std::vector<std::string> types;
    /// The label list a model is trained with: "O" first (id 0, so that padding-free code and
    /// people reading id2label find "outside" in the same place), then for each type in the
    /// order of `types` its B-, I- (and for IOBES E-, S-) tags. It depends only on the scheme
    /// and the types, so two files with the same types give the same ids, and every tag the
    /// scheme allows has an id even where the data never uses it (a model may predict it).
    std::vector<std::string> labels;
    /// Entities per type in the data (for the dataset tab).
    std::map<std::string, std::size_t> entityCounts;
    /// Words per tag as written (for the dataset tab).
    std::map<std::string, std::size_t> tagCounts;
    std::size_t sentences = 0;
    std::size_t words = 0;
};

/// The scheme the tags use: IOBES when any tag begins with E- or S-, BIO otherwise.
TagScheme detectTagScheme(const std::vector<TaggedSentence>& sentences);

/// Checks every tag of the sentences and sums them up. Throws InputError naming the file, the
/// line and the tag: a tag that is neither O nor a B-/I-/E-/S- prefix with a type; an I- (or
/// E-) that does not continue a B- or I- of the same type ("an I- without its B-"); in IOBES, a
/// B- or I- not closed by an E- of its type (BIO tags mixed into an IOBES file). IOB1 files,
/// where an entity may begin with I-, are refused with a hint: convert them with toBio.
TagSummary checkTags(const std::vector<TaggedSentence>& sentences,
                     const std::filesystem::path& file);

/// The label list for a scheme and a set of types (see TagSummary::labels).
std::vector<std::string> labelsFor(TagScheme scheme, std::vector<std::string> types);

/// IOB1 (CoNLL-2003's original files: I- begins an entity unless it follows one of its type,
/// B- only between two adjacent entities of one type) rewritten as BIO: each I- that begins an
/// entity becomes B-. Tags of a BIO sentence come back unchanged.
std::vector<std::string> toBio(const std::vector<std::string>& tags);

}  // namespace bert
