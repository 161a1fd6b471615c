#pragma once

#include <cstddef>
#include <string>

namespace bert {

/// One entity: a type over the words [begin, end) of a sentence (or of a set's sentences read
/// as one stream, as the entity report reads them).
struct EntitySpan {
    std::string type;
    std::size_t begin = 0;
    std::size_t end = 0;
    bool operator==(const EntitySpan& other) const {
        return begin == other.begin && end == other.end && type == other.type;
    }
};

}  // namespace bert
