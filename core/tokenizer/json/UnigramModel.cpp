// tokenizer.json's Unigram model (SentencePiece's), as the `tokenizers` library applies it: the
// Viterbi path of highest total score over the pieces of the vocabulary, a character no piece
// starts with scoring min_score - 10 as the unknown token, consecutive unknown characters
// fused into one unknown token; byte_fallback spells a piece outside the vocabulary as its
// bytes' <0xXX> tokens.
#include <array>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "Error.h"
#include "text/Utf8.h"
#include "tokenizer/json/ByteTrie.h"
#include "tokenizer/json/Models.h"

namespace bert::tokenizer_json {

namespace {

constexpr double kUnkPenalty = 10.0;

// The score the reference reads for a JSON number. serde_json (without its float_roundtrip
// feature, as `tokenizers` builds it) does not round correctly: it collects the decimal digits
// into a u64 and multiplies or divides by a power of ten, which can land one unit in the last
// place away from the true value, and the Viterbi path's ties follow those bits. value is the
// correctly rounded number; its shortest decimal form is the text the file holds (tokenizers and
// Python both write the shortest), replayed here through serde_json's arithmetic.
double serdeJsonScore(double value) {
    if (value == 0.0 || !std::isfinite(value)) {
        return value;
    }
    static const std::array<double, 309> powers = [] {
        std::array<double, 309> table{};
        for (int i = 0; i <= 308; ++i) {
            table[static_cast<std::size_t>(i)] =
                std::strtod(("1e" + std::to_string(i)).c_str(), nullptr);
        }
        return table;
    }();
    char text[64];
    const auto written = std::to_chars(text, text + sizeof(text), value);
    const char* p = text;
    const bool negative = *p == '-';
    p += negative ? 1 : 0;
    std::uint64_t significand = 0;
    int exponent = 0;
    bool afterPoint = false;
    for (; p < written.ptr && *p != 'e'; ++p) {
        if (*p == '.') {
            afterPoint = true;
            continue;
        }
        significand = significand * 10 + static_cast<std::uint64_t>(*p - '0');
        exponent -= afterPoint ? 1 : 0;
    }
    if (p < written.ptr && *p == 'e') {
        exponent += static_cast<int>(std::strtol(p + 1, nullptr, 10));
    }
    auto f = static_cast<double>(significand);
    while (true) {
        const int magnitude = exponent < 0 ? -exponent : exponent;
        if (magnitude <= 308) {
            if (exponent >= 0) {
                f *= powers[static_cast<std::size_t>(magnitude)];
            } else {
                f /= powers[static_cast<std::size_t>(magnitude)];
            }
            break;
        }
        if (f == 0.0 || exponent >= 0) {
            break;
        }
        f /= 1e308;
        exponent += 308;
    }
    return negative ? -f : f;
}

class UnigramModel final : public Model {
public:
    UnigramModel(std::vector<std::pair<std::string, double>> pieces,
                 std::optional<std::int32_t> unkId, bool byteFallback, const JsonContext& context)
        : scores_(pieces.size()), unkId_(unkId), byteFallback_(byteFallback), file_(context.file()) {
        std::vector<std::pair<std::string, std::int32_t>> keys;
        keys.reserve(pieces.size());
        for (std::size_t id = 0; id < pieces.size(); ++id) {
            scores_[id] = pieces[id].second;
            minScore_ = std::min(minScore_, pieces[id].second);
            vocabulary_.add(pieces[id].first, static_cast<std::int32_t>(id));
            keys.emplace_back(pieces[id].first, static_cast<std::int32_t>(id));
        }
        vocabulary_.finish(context.at("vocab"));
        // A piece listed twice answers with its last id, in the trie as in the vocabulary.
        trie_ = ByteTrie(std::move(keys));
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
        for (const auto& piece : viterbi(word)) {
            if (const auto id = vocabulary_.find(piece)) {
                ids.push_back(*id);
                continue;
            }
            if (byteFallback_) {
                bool all = true;
                for (const char c : piece) {
                    all = all && byteIds_[static_cast<unsigned char>(c)] >= 0;
                }
                if (all) {
                    for (const char c : piece) {
                        ids.push_back(byteIds_[static_cast<unsigned char>(c)]);
                    }
                    continue;
                }
            }
            ids.push_back(unknown());
        }
    }

    const Vocabulary& vocabulary() const override { return vocabulary_; }
    std::optional<std::int32_t> unkId() const override { return unkId_; }
    std::string kind() const override { return "Unigram"; }

private:
    std::int32_t unknown() const {
        if (!unkId_) {
            throw InputError(file_, "the Unigram model has no unknown token (unk_id), which this "
                                    "text needs");
        }
        return *unkId_;
    }

    // encode_optimized: the best path's pieces, unknown runs fused.
    std::vector<std::string_view> viterbi(std::string_view sentence) const {
        struct Node {
            std::int32_t id = 0;
            double score = 0.0;
            std::ptrdiff_t start = -1;  ///< -1: no path ends here yet
        };
        const double unkScore = minScore_ - kUnkPenalty;
        std::vector<Node> best(sentence.size() + 1);
        std::size_t start = 0;
        while (start < sentence.size()) {
            const double scoreHere = best[start].score;
            std::size_t next = start;
            utf8::decode(sentence, next);
            const std::size_t charLength = next - start;
            bool singleCharacter = false;
            trie_.prefixes(sentence.substr(start), [&](std::size_t length, std::int32_t id) {
                Node& target = best[start + length];
                const double candidate = scores_[static_cast<std::size_t>(id)] + scoreHere;
                if (target.start < 0 || candidate > target.score) {
                    target = {id, candidate, static_cast<std::ptrdiff_t>(start)};
                }
                singleCharacter = singleCharacter || length == charLength;
            });
            if (!singleCharacter) {
                Node& target = best[start + charLength];
                const double candidate = unkScore + scoreHere;
                if (target.start < 0 || candidate > target.score) {
                    target = {unknown(), candidate, static_cast<std::ptrdiff_t>(start)};
                }
            }
            start = next;
        }
        std::vector<std::string_view> pieces;
        std::size_t end = sentence.size();
        std::size_t fusedEnd = 0;  // end of the unknown run being fused (0: none)
        while (end > 0) {
            const Node& node = best[end];
            const auto begin = static_cast<std::size_t>(node.start);
            if (unkId_ && node.id == *unkId_) {
                if (fusedEnd == 0) {
                    fusedEnd = end;
                }
            } else {
                if (fusedEnd != 0) {
                    pieces.push_back(sentence.substr(end, fusedEnd - end));
                    fusedEnd = 0;
                }
                pieces.push_back(sentence.substr(begin, end - begin));
            }
            end = begin;
        }
        if (fusedEnd != 0) {
            pieces.push_back(sentence.substr(0, fusedEnd));
        }
        return {pieces.rbegin(), pieces.rend()};
    }

    Vocabulary vocabulary_;
    std::vector<double> scores_;
    double minScore_ = std::numeric_limits<double>::infinity();
    std::optional<std::int32_t> unkId_;
    bool byteFallback_;
    ByteTrie trie_;
    std::int32_t byteIds_[256];
    std::filesystem::path file_;
};

}  // namespace

std::unique_ptr<const Model> parseUnigramModel(const nlohmann::json& object,
                                               const JsonContext& context) {
    const auto vocabContext = context.at("vocab");
    const auto& vocab = vocabContext.array(context.required(object, "vocab"));
    std::vector<std::pair<std::string, double>> pieces;
    pieces.reserve(vocab.size());
    // transformers' XLMRobertaTokenizer and CamembertTokenizer rebuild the model from scores
    // Python's json read (correctly rounded); see TransformersSettings.cpp.
    const bool exactScores = context.boolean(object, kExactScoresKey, false);
    for (std::size_t i = 0; i < vocab.size(); ++i) {
        const auto entryContext = vocabContext.at(i);
        const auto& entry = vocab[i];
        if (!entry.is_array() || entry.size() != 2) {
            entryContext.fail("must be [\"piece\", score]");
        }
        const double score = entryContext.at(1).number(entry[1]);
        pieces.emplace_back(entryContext.at(0).text(entry[0]),
                            exactScores ? score : serdeJsonScore(score));
    }
    std::optional<std::int32_t> unkId;
    if (object.contains("unk_id") && !object["unk_id"].is_null()) {
        const auto id = context.at("unk_id").id(object["unk_id"]);
        if (id >= pieces.size()) {
            context.at("unk_id").fail("is " + std::to_string(id) + ", past the vocabulary's " +
                                      std::to_string(pieces.size()) + " pieces");
        }
        unkId = static_cast<std::int32_t>(id);
    }
    if (pieces.size() > kMaxTokenId) {
        vocabContext.fail("has more pieces than token ids");
    }
    return std::make_unique<UnigramModel>(std::move(pieces), unkId,
                                          context.boolean(object, "byte_fallback", false), context);
}

}  // namespace bert::tokenizer_json
