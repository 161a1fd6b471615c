#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace bert::tokenizer_json {

/// A read-only trie over byte strings, each key carrying a value: the Unigram model's common
/// prefix search and the added tokens' longest match. Built once from all keys (sorted here),
/// stored as two flat arrays.
class ByteTrie {
public:
    ByteTrie() = default;
    /// keys with their values; a key given twice keeps its last value.
    explicit ByteTrie(std::vector<std::pair<std::string, std::int32_t>> keys);

    bool empty() const { return nodes_.size() <= 1 && nodes_.front().value < 0; }

    /// Calls found(length, value) for every key that is a prefix of text, shortest first.
    template <typename Found>
    void prefixes(std::string_view text, Found&& found) const {
        std::uint32_t node = 0;
        for (std::size_t i = 0; i < text.size(); ++i) {
            node = child(node, static_cast<unsigned char>(text[i]));
            if (node == kNone) {
                return;
            }
            if (nodes_[node].value >= 0) {
                found(i + 1, nodes_[node].value);
            }
        }
    }

    /// The longest key that is a prefix of text: (length, value), or (0, -1).
    std::pair<std::size_t, std::int32_t> longestPrefix(std::string_view text) const {
        std::pair<std::size_t, std::int32_t> best{0, -1};
        prefixes(text, [&](std::size_t length, std::int32_t value) { best = {length, value}; });
        return best;
    }

private:
    static constexpr std::uint32_t kNone = 0xFFFFFFFF;
    struct Node {
        std::uint32_t firstEdge = 0;
        std::uint32_t edgeCount = 0;
        std::int32_t value = -1;
    };
    struct Edge {
        unsigned char byte;
        std::uint32_t child;
    };
    std::uint32_t child(std::uint32_t node, unsigned char byte) const;

    std::vector<Node> nodes_{Node{}};
    std::vector<Edge> edges_;
};

}  // namespace bert::tokenizer_json
