#include "data/LongText.h"

#include <algorithm>
#include <cstdio>

#include "Error.h"

namespace bert {

namespace {

/// The text's tokens of a whole encoding, between the template's special tokens.
std::size_t contentSize(const Encoding& whole, const TemplateShape& shape) {
    return whole.size() >= shape.total() ? whole.size() - shape.total() : 0;
}

/// whole's template around its text tokens [begin, end) and [begin2, end2).
Encoding pieces(const Encoding& whole, const TemplateShape& shape,
                std::initializer_list<std::pair<std::size_t, std::size_t>> ranges) {
    Encoding out;
    auto take = [&](std::size_t from, std::size_t to) {
        for (std::size_t i = from; i < to; ++i) {
            out.inputIds.push_back(whole.inputIds[i]);
            out.tokenTypeIds.push_back(whole.tokenTypeIds.empty() ? 0 : whole.tokenTypeIds[i]);
            out.attentionMask.push_back(1);
        }
    };
    take(0, shape.before);
    for (const auto& [begin, end] : ranges) {
        take(shape.before + begin, shape.before + end);
    }
    take(whole.size() - shape.after, whole.size());
    return out;
}

}  // namespace

namespace {
constexpr const char* kModeNames[] = {"truncate", "head-tail", "windows"};
constexpr const char* kPoolingNames[] = {"task", "mean", "max"};
}  // namespace

std::string longTextModeName(LongTextMode mode) {
    return kModeNames[static_cast<int>(mode)];
}

std::optional<LongTextMode> longTextModeNamed(std::string_view name) {
    for (int i = 0; i < 3; ++i) {
        if (name == kModeNames[i]) {
            return static_cast<LongTextMode>(i);
        }
    }
    return std::nullopt;
}

std::string windowPoolingName(WindowPooling pooling) {
    return kPoolingNames[static_cast<int>(pooling)];
}

std::optional<WindowPooling> windowPoolingNamed(std::string_view name) {
    for (int i = 0; i < 3; ++i) {
        if (name == kPoolingNames[i]) {
            return static_cast<WindowPooling>(i);
        }
    }
    return std::nullopt;
}

TemplateShape templateShapeOf(const Tokenizer& tokenizer) {
    // A probe text's tokens sit in the template between its special tokens.
    constexpr std::string_view kProbe = "a";
    const auto whole = tokenizer.encode(kProbe, 0);
    const auto text = tokenizer.tokenizeToIds(kProbe);
    TemplateShape shape;
    const auto found =
        std::search(whole.inputIds.begin(), whole.inputIds.end(), text.begin(), text.end());
    if (text.empty() || found == whole.inputIds.end()) {
        shape.after = whole.size();  // no text token seen: count everything as template
        return shape;
    }
    shape.before = static_cast<std::size_t>(found - whole.inputIds.begin());
    shape.after = whole.size() - shape.before - text.size();
    return shape;
}

void checkLongTextSpec(const LongTextSpec& spec, std::size_t maxLength,
                       const TemplateShape& shape) {
    const std::size_t room = maxLength > shape.total() ? maxLength - shape.total() : 0;
    if (spec.mode == LongTextMode::Windows && spec.stride >= room) {
        throw InputError("--window-stride " + std::to_string(spec.stride) +
                         " is not smaller than a window: max length " + std::to_string(maxLength) +
                         " holds " + std::to_string(room) +
                         " tokens of text; a stride must leave each window new tokens");
    }
    if (spec.mode == LongTextMode::HeadTail && spec.headTokens >= room) {
        throw InputError("--head-tokens " + std::to_string(spec.headTokens) +
                         " leaves no room for the tail: max length " + std::to_string(maxLength) +
                         " holds " + std::to_string(room) + " tokens of text");
    }
}

std::vector<Encoding> fitLongText(const Encoding& whole, std::size_t maxLength,
                                  const LongTextSpec& spec, const TemplateShape& shape) {
    if (whole.size() <= maxLength) {
        return {whole};
    }
    const std::size_t room = maxLength > shape.total() ? maxLength - shape.total() : 0;
    const std::size_t text = contentSize(whole, shape);
    switch (spec.mode) {
        case LongTextMode::Truncate:
            return {pieces(whole, shape, {{0, room}})};
        case LongTextMode::HeadTail: {
            const auto head = std::min(spec.headTokens, room);
            return {pieces(whole, shape, {{0, head}, {text - (room - head), text}})};
        }
        case LongTextMode::Windows: {
            // tokenizers' Encoding::truncate with a stride: windows start every room - stride
            // tokens, each room tokens long but the last, until one reaches the end.
            const std::size_t step = room > spec.stride ? room - spec.stride : 1;
            std::vector<Encoding> windows;
            for (std::size_t start = 0; start < text; start += step) {
                const auto stop = std::min(start + room, text);
                windows.push_back(pieces(whole, shape, {{start, stop}}));
                if (stop == text) {
                    break;
                }
            }
            return windows;
        }
    }
    return {whole};
}

void fitLongTexts(TokenizedSet& set, std::size_t maxLength, const LongTextSpec& spec,
                  const TemplateShape& shape) {
    TokenizedSet out;
    const bool hasLabels = !set.labels.empty();
    const bool hasTargets = !set.targets.empty();
    const bool hasValues = !set.values.empty();
    for (std::size_t i = 0; i < set.encodings.size(); ++i) {
        for (auto& encoding : fitLongText(set.encodings[i], maxLength, spec, shape)) {
            out.lengths.push_back(encoding.size());
            out.encodings.push_back(std::move(encoding));
            if (hasLabels) {
                out.labels.push_back(set.labels[i]);
            }
            if (hasTargets) {
                out.targets.push_back(set.targets[i]);
            }
            if (hasValues) {
                out.values.push_back(set.values[i]);
            }
            if (spec.windows()) {
                out.documents.push_back(i);
            }
        }
    }
    out.tokenLabels = std::move(set.tokenLabels);  // (token classification keeps truncating)
    set = std::move(out);
}

std::pair<std::size_t, std::size_t> windowTokens(std::size_t index, std::size_t textTokens,
                                                 std::size_t maxLength, const LongTextSpec& spec,
                                                 const TemplateShape& shape) {
    const std::size_t room = maxLength > shape.total() ? maxLength - shape.total() : 0;
    const std::size_t step = room > spec.stride ? room - spec.stride : 1;
    const auto first = std::min(index * step, textTokens);  // as fitLongText cuts them
    return {first, std::min(first + room, textTokens)};
}

std::size_t windowCount(std::size_t length, std::size_t maxLength, const LongTextSpec& spec,
                        const TemplateShape& shape) {
    if (length <= maxLength || !spec.windows()) {
        return 1;
    }
    const std::size_t room = maxLength > shape.total() ? maxLength - shape.total() : 0;
    const std::size_t text = length >= shape.total() ? length - shape.total() : 0;
    const std::size_t step = room > spec.stride ? room - spec.stride : 1;
    // Windows start at 0, step, 2 step... until one reaches the end (fitLongText).
    return text <= room ? 1 : 1 + (text - room + step - 1) / step;
}

LongTextShare longTextShare(const std::vector<std::size_t>& wholeLengths, std::size_t maxLength,
                            const LongTextSpec& spec, const TemplateShape& shape) {
    LongTextShare share;
    share.documents = wholeLengths.size();
    for (const auto length : wholeLengths) {
        share.over += length > maxLength ? 1 : 0;
        share.windows += windowCount(length, maxLength, spec, shape);
    }
    return share;
}

std::string LongTextShare::describe(std::size_t maxLength, const LongTextSpec& spec) const {
    char text[200];
    const double percent =
        documents == 0 ? 0.0 : 100.0 * static_cast<double>(over) / static_cast<double>(documents);
    if (spec.windows()) {
        std::snprintf(
            text, sizeof text,
            "%.0f%% of %zu documents exceed %zu tokens; windows of %zu, stride %zu: "
            "%.2f windows per document",
            percent, documents, maxLength, maxLength, spec.stride,
            documents == 0 ? 0.0 : static_cast<double>(windows) / static_cast<double>(documents));
    } else {
        std::snprintf(text, sizeof text, "%.0f%% of %zu documents exceed %zu tokens", percent,
                      documents, maxLength);
    }
    return text;
}

}  // namespace bert
