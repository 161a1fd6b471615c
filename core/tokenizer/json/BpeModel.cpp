// tokenizer.json's BPE model, as the `tokenizers` library applies it: each character of the
// word (with continuing_subword_prefix / end_of_word_suffix where set) becomes a symbol, or its
// bytes' <0xXX> tokens (byte_fallback), or the unknown token (fused when fuse_unk); then merges
// are applied lowest rank first, leftmost first among equal ranks, until none applies.
// ignore_merges takes a word found whole in the vocabulary as it is.
#include <queue>
#include <unordered_map>

#include "Error.h"
#include "text/Utf8.h"
#include "tokenizer/json/Models.h"

namespace bert::tokenizer_json {

namespace {

struct MergeResult {
    std::uint32_t rank;
    std::int32_t id;
};

std::uint64_t pairKey(std::int32_t left, std::int32_t right) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32U) |
           static_cast<std::uint32_t>(right);
}

struct Settings {
    std::optional<std::string> unkToken;
    std::optional<std::string> prefix;
    std::optional<std::string> suffix;
    bool fuseUnk = false;
    bool byteFallback = false;
    bool ignoreMerges = false;
};

class BpeModel final : public Model {
public:
    BpeModel(Vocabulary vocabulary, std::unordered_map<std::uint64_t, MergeResult> merges,
             Settings settings, std::filesystem::path file)
        : vocabulary_(std::move(vocabulary)),
          merges_(std::move(merges)),
          settings_(std::move(settings)),
          file_(std::move(file)) {
        if (settings_.unkToken) {
            unkId_ = vocabulary_.find(*settings_.unkToken);
        }
        for (unsigned byte = 0; byte < 256; ++byte) {
            static const char* digits = "0123456789ABCDEF";
            const std::string name = std::string("<0x") + digits[byte >> 4U] + digits[byte & 15U] + ">";
            byteIds_[byte] = vocabulary_.find(name).value_or(-1);
        }
    }

    void tokenize(std::string_view word, std::vector<std::int32_t>& ids) const override {
        if (word.empty()) {
            return;
        }
        if (settings_.ignoreMerges) {
            if (const auto id = vocabulary_.find(word)) {
                ids.push_back(*id);
                return;
            }
        }
        std::vector<std::int32_t> symbols;
        symbols.reserve(word.size());
        collectSymbols(word, symbols);
        mergeAll(symbols);
        ids.insert(ids.end(), symbols.begin(), symbols.end());
    }

    const Vocabulary& vocabulary() const override { return vocabulary_; }
    std::optional<std::int32_t> unkId() const override { return unkId_; }
    std::string kind() const override { return "BPE"; }

private:
    // merge_word's first half: one symbol per character.
    void collectSymbols(std::string_view word, std::vector<std::int32_t>& symbols) const {
        std::int32_t pendingUnk = -1;  // an unknown token not yet written (fuse_unk grows it)
        std::string decorated;
        std::size_t pos = 0;
        while (pos < word.size()) {
            const std::size_t start = pos;
            utf8::decode(word, pos);
            std::string_view piece = word.substr(start, pos - start);
            const bool first = start == 0;
            const bool last = pos == word.size();
            if ((!first && settings_.prefix && !settings_.prefix->empty()) ||
                (last && settings_.suffix && !settings_.suffix->empty())) {
                decorated.clear();
                if (!first && settings_.prefix) {
                    decorated += *settings_.prefix;
                }
                decorated += piece;
                if (last && settings_.suffix) {
                    decorated += *settings_.suffix;
                }
                piece = decorated;
            }
            if (const auto id = vocabulary_.find(piece)) {
                if (pendingUnk >= 0) {
                    symbols.push_back(pendingUnk);
                    pendingUnk = -1;
                }
                symbols.push_back(*id);
                continue;
            }
            if (settings_.byteFallback) {
                bool all = true;
                for (const char c : piece) {
                    all = all && byteIds_[static_cast<unsigned char>(c)] >= 0;
                }
                if (all) {
                    // The reference leaves a pending unknown token where it is (it follows).
                    for (const char c : piece) {
                        symbols.push_back(byteIds_[static_cast<unsigned char>(c)]);
                    }
                    continue;
                }
            }
            if (settings_.unkToken) {
                if (!unkId_) {
                    throw InputError(file_, "the BPE vocabulary lacks its unknown token \"" +
                                                *settings_.unkToken + "\", which this text needs");
                }
                if (pendingUnk >= 0 && !settings_.fuseUnk) {
                    symbols.push_back(pendingUnk);
                }
                pendingUnk = *unkId_;
            }
        }
        if (pendingUnk >= 0) {
            symbols.push_back(pendingUnk);
        }
    }

    // Word::merge_all without dropout: a min-heap of (rank, position).
    void mergeAll(std::vector<std::int32_t>& symbols) const {
        const std::size_t n = symbols.size();
        if (n < 2) {
            return;
        }
        std::vector<std::ptrdiff_t> prev(n);
        std::vector<std::ptrdiff_t> next(n);
        std::vector<bool> alive(n, true);
        for (std::size_t i = 0; i < n; ++i) {
            prev[i] = static_cast<std::ptrdiff_t>(i) - 1;
            next[i] = i + 1 < n ? static_cast<std::ptrdiff_t>(i + 1) : -1;
        }
        struct Candidate {
            std::uint32_t rank;
            std::size_t pos;
            std::int32_t id;
            bool operator>(const Candidate& other) const {
                return rank != other.rank ? rank > other.rank : pos > other.pos;
            }
        };
        std::priority_queue<Candidate, std::vector<Candidate>, std::greater<>> queue;
        auto push = [&](std::size_t pos, std::int32_t left, std::int32_t right) {
            const auto it = merges_.find(pairKey(left, right));
            if (it != merges_.end()) {
                queue.push({it->second.rank, pos, it->second.id});
            }
        };
        for (std::size_t i = 0; i + 1 < n; ++i) {
            push(i, symbols[i], symbols[i + 1]);
        }
        while (!queue.empty()) {
            const Candidate top = queue.top();
            queue.pop();
            if (!alive[top.pos] || next[top.pos] < 0) {
                continue;
            }
            const auto right = static_cast<std::size_t>(next[top.pos]);
            const auto it = merges_.find(pairKey(symbols[top.pos], symbols[right]));
            if (it == merges_.end() || it->second.id != top.id) {
                continue;  // an entry made stale by an earlier merge
            }
            symbols[top.pos] = top.id;
            alive[right] = false;
            next[top.pos] = next[right];
            if (next[right] >= 0) {
                prev[static_cast<std::size_t>(next[right])] = static_cast<std::ptrdiff_t>(top.pos);
            }
            if (prev[top.pos] >= 0) {
                const auto left = static_cast<std::size_t>(prev[top.pos]);
                push(left, symbols[left], symbols[top.pos]);
            }
            if (next[top.pos] >= 0) {
                push(top.pos, symbols[top.pos], symbols[static_cast<std::size_t>(next[top.pos])]);
            }
        }
        std::size_t kept = 0;
        for (std::size_t i = 0; i < n; ++i) {
            if (alive[i]) {
                symbols[kept++] = symbols[i];
            }
        }
        symbols.resize(kept);
    }

    Vocabulary vocabulary_;
    std::unordered_map<std::uint64_t, MergeResult> merges_;
    Settings settings_;
    std::optional<std::int32_t> unkId_;
    std::int32_t byteIds_[256];
    std::filesystem::path file_;
};

std::optional<std::string> optionalString(const nlohmann::json& object, const char* key,
                                          const JsonContext& context) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        return std::nullopt;
    }
    return context.at(key).text(*it);
}

}  // namespace

std::unique_ptr<const Model> parseBpeModel(const nlohmann::json& object,
                                           const JsonContext& context) {
    const auto vocabContext = context.at("vocab");
    const auto& vocab = vocabContext.object(context.required(object, "vocab"));
    Vocabulary vocabulary;
    for (const auto& [token, id] : vocab.items()) {
        vocabulary.add(token, static_cast<std::int32_t>(vocabContext.at(token).id(id)));
    }
    vocabulary.finish(vocabContext);

    Settings settings;
    settings.unkToken = optionalString(object, "unk_token", context);
    settings.prefix = optionalString(object, "continuing_subword_prefix", context);
    settings.suffix = optionalString(object, "end_of_word_suffix", context);
    settings.fuseUnk = context.boolean(object, "fuse_unk", false);
    settings.byteFallback = context.boolean(object, "byte_fallback", false);
    settings.ignoreMerges = context.boolean(object, "ignore_merges", false);
    // BPE dropout is random; inference (and the engine) tokenizes without it.

    const auto mergesContext = context.at("merges");
    const auto& merges = mergesContext.array(context.required(object, "merges"));
    std::unordered_map<std::uint64_t, MergeResult> table;
    table.reserve(merges.size());
    const std::size_t prefixLength = settings.prefix ? settings.prefix->size() : 0;
    for (std::size_t rank = 0; rank < merges.size(); ++rank) {
        const auto mergeContext = mergesContext.at(rank);
        const auto& merge = merges[rank];
        std::string left;
        std::string right;
        if (merge.is_string()) {
            const auto text = merge.get<std::string>();
            const auto space = text.find(' ');
            if (space == std::string::npos || text.find(' ', space + 1) != std::string::npos) {
                mergeContext.fail("must be two tokens separated by one space, not \"" + text + "\"");
            }
            left = text.substr(0, space);
            right = text.substr(space + 1);
        } else if (merge.is_array() && merge.size() == 2) {
            left = mergeContext.at(0).text(merge[0]);
            right = mergeContext.at(1).text(merge[1]);
        } else {
            mergeContext.fail("must be \"left right\" or [\"left\", \"right\"]");
        }
        const auto leftId = vocabulary.find(left);
        const auto rightId = vocabulary.find(right);
        if (!leftId || !rightId) {
            mergeContext.fail("merges \"" + (leftId ? right : left) + "\", which is not in the vocabulary");
        }
        if (right.size() < prefixLength) {
            mergeContext.fail("right token \"" + right + "\" is shorter than the continuing-subword prefix");
        }
        const std::string merged = left + right.substr(prefixLength);
        const auto mergedId = vocabulary.find(merged);
        if (!mergedId) {
            mergeContext.fail("makes \"" + merged + "\", which is not in the vocabulary");
        }
        // A pair listed twice takes its later rank, as the reference's map does.
        table.insert_or_assign(pairKey(*leftId, *rightId),
                               MergeResult{static_cast<std::uint32_t>(rank), *mergedId});
    }
    return std::make_unique<BpeModel>(std::move(vocabulary), std::move(table), std::move(settings),
                                      context.file());
}

}  // namespace bert::tokenizer_json
