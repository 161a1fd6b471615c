#include "tokenizer/json/ByteTrie.h"

#include <algorithm>
#include <deque>

namespace bert::tokenizer_json {

ByteTrie::ByteTrie(std::vector<std::pair<std::string, std::int32_t>> keys) {
    // Stable sort keeps a repeated key's entries in input order; the last one wins.
    std::stable_sort(keys.begin(), keys.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    struct Pending {
        std::uint32_t node;
        std::size_t lo;
        std::size_t hi;
        std::size_t depth;
    };
    std::deque<Pending> queue;
    if (!keys.empty()) {
        queue.push_back({0, 0, keys.size(), 0});
    }
    while (!queue.empty()) {
        auto [node, lo, hi, depth] = queue.front();
        queue.pop_front();
        while (lo < hi && keys[lo].first.size() == depth) {
            nodes_[node].value = keys[lo].second;
            ++lo;
        }
        nodes_[node].firstEdge = static_cast<std::uint32_t>(edges_.size());
        std::size_t groupStart = lo;
        while (groupStart < hi) {
            const auto byte = static_cast<unsigned char>(keys[groupStart].first[depth]);
            std::size_t groupEnd = groupStart + 1;
            while (groupEnd < hi && static_cast<unsigned char>(keys[groupEnd].first[depth]) == byte) {
                ++groupEnd;
            }
            const auto childIndex = static_cast<std::uint32_t>(nodes_.size());
            nodes_.push_back(Node{});
            edges_.push_back({byte, childIndex});
            ++nodes_[node].edgeCount;
            queue.push_back({childIndex, groupStart, groupEnd, depth + 1});
            groupStart = groupEnd;
        }
    }
}

std::uint32_t ByteTrie::child(std::uint32_t node, unsigned char byte) const {
    const Node& n = nodes_[node];
    const Edge* begin = edges_.data() + n.firstEdge;
    const Edge* end = begin + n.edgeCount;
    if (n.edgeCount <= 8) {
        for (const Edge* e = begin; e != end; ++e) {
            if (e->byte == byte) {
                return e->child;
            }
        }
        return kNone;
    }
    const Edge* it =
        std::lower_bound(begin, end, byte, [](const Edge& e, unsigned char b) { return e.byte < b; });
    return it != end && it->byte == byte ? it->child : kNone;
}

}  // namespace bert::tokenizer_json
