#include "tokenizer/json/PostProcessors.h"

#include <map>
#include <string>

namespace bert::tokenizer_json {

namespace {

struct TemplatePiece {
    bool isSequence = false;
    std::size_t sequence = 0;        ///< 0 for $A, 1 for $B
    std::vector<std::int32_t> ids;   ///< a special token's ids
    std::int32_t typeId = 0;
};

class TemplateProcessing final : public PostProcessor {
public:
    TemplateProcessing(std::vector<TemplatePiece> single, std::vector<TemplatePiece> pair)
        : single_(std::move(single)), pair_(std::move(pair)) {}

    std::size_t added(bool pair) const override {
        std::size_t count = 0;
        for (const auto& piece : pair ? pair_ : single_) {
            count += piece.ids.size();
        }
        return count;
    }

    std::vector<Sequence> process(std::vector<Sequence> sequences) const override {
        Sequence merged;
        for (const auto& piece : sequences.size() == 2 ? pair_ : single_) {
            const auto& ids = piece.isSequence ? sequences[piece.sequence].ids : piece.ids;
            merged.ids.insert(merged.ids.end(), ids.begin(), ids.end());
            merged.typeIds.insert(merged.typeIds.end(), ids.size(), piece.typeId);
        }
        return {std::move(merged)};
    }

private:
    std::vector<TemplatePiece> single_;
    std::vector<TemplatePiece> pair_;
};

// BertProcessing: [CLS] A [SEP] (segment 0), B [SEP] (segment 1).
class BertProcessing final : public PostProcessor {
public:
    BertProcessing(std::int32_t cls, std::int32_t sep) : cls_(cls), sep_(sep) {}
    std::size_t added(bool pair) const override { return pair ? 3 : 2; }
    std::vector<Sequence> process(std::vector<Sequence> sequences) const override {
        auto& first = sequences[0];
        first.ids.insert(first.ids.begin(), cls_);
        first.ids.push_back(sep_);
        first.typeIds.insert(first.typeIds.begin(), 0);
        first.typeIds.push_back(0);
        if (sequences.size() == 2) {
            sequences[1].ids.push_back(sep_);
            sequences[1].typeIds.push_back(1);
        }
        return sequences;
    }

private:
    std::int32_t cls_;
    std::int32_t sep_;
};

// RobertaProcessing: <s> A </s> </s> B </s>, every segment id 0.
class RobertaProcessing final : public PostProcessor {
public:
    RobertaProcessing(std::int32_t cls, std::int32_t sep) : cls_(cls), sep_(sep) {}
    std::size_t added(bool pair) const override { return pair ? 4 : 2; }
    std::vector<Sequence> process(std::vector<Sequence> sequences) const override {
        auto& first = sequences[0];
        first.ids.insert(first.ids.begin(), cls_);
        first.ids.push_back(sep_);
        if (sequences.size() == 2) {
            sequences[1].ids.insert(sequences[1].ids.begin(), sep_);
            sequences[1].ids.push_back(sep_);
        }
        for (auto& sequence : sequences) {
            sequence.typeIds.assign(sequence.ids.size(), 0);
        }
        return sequences;
    }

private:
    std::int32_t cls_;
    std::int32_t sep_;
};

// ByteLevel as a post-processor only trims offsets: nothing to do for ids.
class NoTokens final : public PostProcessor {
public:
    std::size_t added(bool) const override { return 0; }
    std::vector<Sequence> process(std::vector<Sequence> sequences) const override {
        return sequences;
    }
};

class SequenceProcessing final : public PostProcessor {
public:
    explicit SequenceProcessing(std::vector<std::unique_ptr<const PostProcessor>> parts)
        : parts_(std::move(parts)) {}
    std::size_t added(bool pair) const override {
        std::size_t count = 0;
        for (const auto& part : parts_) {
            count += part->added(pair);
        }
        return count;
    }
    std::vector<Sequence> process(std::vector<Sequence> sequences) const override {
        for (const auto& part : parts_) {
            sequences = part->process(std::move(sequences));
        }
        return sequences;
    }

private:
    std::vector<std::unique_ptr<const PostProcessor>> parts_;
};

// ["[CLS]", 101] of BertProcessing and RobertaProcessing.
std::int32_t tokenIdOf(const nlohmann::json& object, const char* key, const JsonContext& context) {
    const auto field = context.at(key);
    const auto& value = context.required(object, key);
    if (!value.is_array() || value.size() != 2) {
        field.fail("must be [\"token\", id]");
    }
    field.at(0).text(value[0]);
    return static_cast<std::int32_t>(field.at(1).id(value[1]));
}

TemplatePiece pieceFromString(const std::string& text, const JsonContext& context) {
    TemplatePiece piece;
    std::string name = text;
    const auto colon = text.find(':');
    if (colon != std::string::npos) {
        name = text.substr(0, colon);
        const std::string type = text.substr(colon + 1);
        if (type.empty() || type.find_first_not_of("0123456789") != std::string::npos ||
            type.size() > 9) {
            context.fail("cannot read the template piece \"" + text + "\"");
        }
        piece.typeId = std::stoi(type);
    }
    if (!name.empty() && name[0] == '$') {
        piece.isSequence = true;
        const std::string which = name.substr(1);
        if (which == "B" || which == "b") {
            piece.sequence = 1;
        } else if (!(which.empty() || which == "A" || which == "a")) {
            if (which.find_first_not_of("0123456789") != std::string::npos || which.size() > 9) {
                context.fail("cannot read the template piece \"" + text + "\"");
            }
            piece.typeId = std::stoi(which);
        }
    } else {
        piece.ids = {-1};  // resolved against special_tokens by the caller
        piece.isSequence = false;
    }
    return piece;
}

std::vector<TemplatePiece> parseTemplate(const nlohmann::json& object, const char* key,
                                         const std::map<std::string, std::vector<std::int32_t>>& specials,
                                         const JsonContext& context) {
    const auto listContext = context.at(key);
    const auto& list = listContext.array(context.required(object, key));
    std::vector<TemplatePiece> pieces;
    for (std::size_t i = 0; i < list.size(); ++i) {
        const auto pieceContext = listContext.at(i);
        const auto& item = list[i];
        TemplatePiece piece;
        std::string special;
        if (item.is_string()) {
            piece = pieceFromString(item.get<std::string>(), pieceContext);
            if (!piece.isSequence) {
                const std::string text = item.get<std::string>();
                special = text.substr(0, text.find(':'));
            }
        } else if (item.is_object() && item.contains("Sequence")) {
            const auto& sequence = pieceContext.object(item["Sequence"]);
            const auto seqContext = pieceContext.at("Sequence");
            const std::string id = seqContext.string(sequence, "id");
            if (id != "A" && id != "B") {
                seqContext.at("id").fail("must be \"A\" or \"B\"");
            }
            piece.isSequence = true;
            piece.sequence = id == "B" ? 1 : 0;
            piece.typeId = static_cast<std::int32_t>(seqContext.at("type_id").id(
                seqContext.required(sequence, "type_id")));
        } else if (item.is_object() && item.contains("SpecialToken")) {
            const auto& token = pieceContext.object(item["SpecialToken"]);
            const auto tokenContext = pieceContext.at("SpecialToken");
            special = tokenContext.string(token, "id");
            piece.typeId = static_cast<std::int32_t>(tokenContext.at("type_id").id(
                tokenContext.required(token, "type_id")));
        } else {
            pieceContext.fail("must be {\"Sequence\": ...} or {\"SpecialToken\": ...}");
        }
        if (!piece.isSequence) {
            const auto it = specials.find(special);
            if (it == specials.end()) {
                pieceContext.fail("uses the special token \"" + special +
                                  "\", which special_tokens does not define");
            }
            piece.ids = it->second;
        }
        pieces.push_back(std::move(piece));
    }
    return pieces;
}

}  // namespace

std::vector<Sequence> processWithout(std::vector<Sequence> sequences) {
    return sequences;
}

std::unique_ptr<const PostProcessor> parsePostProcessor(const nlohmann::json& value,
                                                        const JsonContext& context) {
    const auto& object = context.object(value);
    const std::string type = context.string(object, "type");
    if (type == "BertProcessing") {
        return std::make_unique<BertProcessing>(tokenIdOf(object, "cls", context),
                                                tokenIdOf(object, "sep", context));
    }
    if (type == "RobertaProcessing") {
        return std::make_unique<RobertaProcessing>(tokenIdOf(object, "cls", context),
                                                   tokenIdOf(object, "sep", context));
    }
    if (type == "ByteLevel") {
        return std::make_unique<NoTokens>();
    }
    if (type == "TemplateProcessing") {
        std::map<std::string, std::vector<std::int32_t>> specials;
        const auto specialsContext = context.at("special_tokens");
        const auto it = object.find("special_tokens");
        if (it != object.end() && !it->is_null()) {
            for (const auto& [name, token] : specialsContext.object(*it).items()) {
                const auto tokenContext = specialsContext.at(name);
                const auto& ids = tokenContext.array(tokenContext.required(
                    tokenContext.object(token), "ids"));
                std::vector<std::int32_t> list;
                for (std::size_t i = 0; i < ids.size(); ++i) {
                    list.push_back(static_cast<std::int32_t>(tokenContext.at("ids").at(i).id(ids[i])));
                }
                specials[name] = std::move(list);
            }
        }
        auto single = parseTemplate(object, "single", specials, context);
        for (const auto& piece : single) {
            if (piece.isSequence && piece.sequence == 1) {
                context.at("single").fail("uses $B, the second text, which a single text lacks");
            }
        }
        auto pair = parseTemplate(object, "pair", specials, context);
        return std::make_unique<TemplateProcessing>(std::move(single), std::move(pair));
    }
    if (type == "Sequence") {
        const auto listContext = context.at("processors");
        const auto& list = listContext.array(context.required(object, "processors"));
        std::vector<std::unique_ptr<const PostProcessor>> parts;
        for (std::size_t i = 0; i < list.size(); ++i) {
            parts.push_back(parsePostProcessor(list[i], listContext.at(i)));
        }
        return std::make_unique<SequenceProcessing>(std::move(parts));
    }
    context.at("type").fail("unknown post-processor \"" + type + "\"");
}

}  // namespace bert::tokenizer_json
