#include "data/LabelCheck.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include <nlohmann/json.hpp>
#include <utf8proc.h>

namespace bert {

namespace {

constexpr std::size_t kManyClasses = 20;
constexpr std::size_t kLongLabelBytes = 25;
constexpr std::size_t kLongLabelWords = 4;
constexpr std::size_t kExamplesShown = 3;

std::string trimmed(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n\v\f");
    if (first == std::string::npos) {
        return {};
    }
    const auto last = text.find_last_not_of(" \t\r\n\v\f");
    return text.substr(first, last - first + 1);
}

/// text mapped by utf8proc with options (NFC, case folding); text itself when it is not UTF-8.
std::string mapped(const std::string& text, int options) {
    utf8proc_uint8_t* result = nullptr;
    const auto length = utf8proc_map(reinterpret_cast<const utf8proc_uint8_t*>(text.data()),
                                     static_cast<utf8proc_ssize_t>(text.size()), &result,
                                     static_cast<utf8proc_option_t>(options));
    if (length < 0) {
        return text;
    }
    std::string out(reinterpret_cast<char*>(result), static_cast<std::size_t>(length));
    std::free(result);
    return out;
}

std::string nfc(const std::string& text) {
    return mapped(text, UTF8PROC_STABLE | UTF8PROC_COMPOSE);
}

/// The number a label spells, when it is one and nothing else ("1", "1.0", " 2e3").
bool asNumber(const std::string& text, double& value) {
    const auto clean = trimmed(text);
    if (clean.empty()) {
        return false;
    }
    char* end = nullptr;
    errno = 0;
    value = std::strtod(clean.c_str(), &end);
    return errno == 0 && end == clean.c_str() + clean.size() && std::isfinite(value);
}

/// What labels that mean the same share: a number's value, else the text trimmed, in NFC and
/// case-folded.
std::string sameness(const std::string& label) {
    double number = 0.0;
    if (asNumber(label, number)) {
        char text[40];
        std::snprintf(text, sizeof text, "number:%.17g", number);
        return text;
    }
    return "text:" + mapped(trimmed(label), UTF8PROC_STABLE | UTF8PROC_COMPOSE | UTF8PROC_CASEFOLD);
}

std::string jsonQuoted(const std::string& label) {
    return nlohmann::json(label).dump(-1, ' ', /*ensure_ascii=*/true,
                                      nlohmann::json::error_handler_t::replace);
}

std::size_t wordsOf(const std::string& text) {
    std::size_t words = 0;
    bool inWord = false;
    for (const char c : text) {
        const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
        words += !space && !inWord ? 1 : 0;
        inWord = !space;
    }
    return words;
}

}  // namespace

std::vector<std::string> labelWarnings(
    const std::vector<std::pair<std::string, std::size_t>>& classes) {
    std::vector<std::string> warnings;
    std::map<std::string, std::vector<std::string>> alike;
    for (const auto& [label, count] : classes) {
        alike[sameness(label)].push_back(label);
    }
    for (const auto& [key, labels] : alike) {
        if (labels.size() < 2) {
            continue;
        }
        std::string list;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            list += (i == 0 ? "" : i + 1 == labels.size() ? " and " : ", ") + jsonQuoted(labels[i]);
        }
        // Say what tells them apart, from the most to the least visible.
        std::string how;
        if (key.rfind("number:", 0) == 0) {
            how = "are the same number";
        } else {
            bool spaces = false;
            bool normalisation = false;
            bool letterCase = false;
            for (std::size_t i = 1; i < labels.size(); ++i) {
                const auto a = labels[0];
                const auto b = labels[i];
                spaces = spaces || trimmed(a) != a || trimmed(b) != b;
                normalisation =
                    normalisation || nfc(trimmed(a)) != trimmed(a) || nfc(trimmed(b)) != trimmed(b);
                letterCase = letterCase || nfc(trimmed(a)) != nfc(trimmed(b));
            }
            std::vector<std::string> parts;
            if (letterCase) {
                parts.emplace_back("case");
            }
            if (spaces) {
                parts.emplace_back("surrounding spaces");
            }
            if (normalisation) {
                parts.emplace_back("Unicode normalisation (how accents are encoded)");
            }
            how = "differ only in ";
            for (std::size_t i = 0; i < parts.size(); ++i) {
                how += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
            }
        }
        warnings.push_back("labels " + list + " " + how +
                           ", but are separate classes; if they mean the same, make them one "
                           "in the data");
    }
    if (classes.size() > kManyClasses) {
        std::size_t once = 0;
        std::vector<std::size_t> bytes;
        std::vector<std::size_t> words;
        for (const auto& [label, count] : classes) {
            once += count == 1 ? 1 : 0;
            bytes.push_back(label.size());
            words.push_back(wordsOf(label));
        }
        const auto median = [](std::vector<std::size_t> values) {
            std::nth_element(values.begin(), values.begin() + values.size() / 2, values.end());
            return values[values.size() / 2];
        };
        if (2 * once >= classes.size() || median(bytes) >= kLongLabelBytes ||
            median(words) >= kLongLabelWords) {
            std::string examples;
            for (std::size_t i = 0; i < std::min(kExamplesShown, classes.size()); ++i) {
                auto shown = classes[i].first.substr(0, 40);
                examples += (i == 0 ? "" : ", ") + jsonQuoted(shown);
            }
            warnings.push_back("the label column has " + std::to_string(classes.size()) +
                               " classes, " + std::to_string(once) +
                               " of them seen once, with values like " + examples +
                               ": it looks like free text rather than labels; is it the right "
                               "column?");
        }
    }
    return warnings;
}

std::string rareLabelWarning(const char* noun,
                             const std::vector<std::pair<std::string, std::size_t>>& counts,
                             std::size_t total, double share) {
    constexpr std::size_t kNamed = 3;
    if (total == 0 || counts.size() < 2) {
        return {};
    }
    std::vector<std::pair<std::string, std::size_t>> rare;
    for (const auto& entry : counts) {
        if (entry.second > 0 &&
            static_cast<double>(entry.second) < share * static_cast<double>(total)) {
            rare.push_back(entry);
        }
    }
    if (rare.empty()) {
        return {};
    }
    std::stable_sort(rare.begin(), rare.end(),
                     [](const auto& a, const auto& b) { return a.second < b.second; });
    std::string list;
    for (std::size_t i = 0; i < std::min(kNamed, rare.size()); ++i) {
        char figures[64];
        std::snprintf(figures, sizeof figures, " %.1f%% (%zu/%zu)",
                      100.0 * static_cast<double>(rare[i].second) / static_cast<double>(total),
                      rare[i].second, total);
        list += (i == 0 ? "" : ", ") + jsonQuoted(rare[i].first) + figures;
    }
    if (rare.size() > kNamed) {
        list += " +" + std::to_string(rare.size() - kNamed);
    }
    const bool labels = std::string(noun) == "labels";
    return std::string("rare ") + noun + ": " + list +
           "; a model can score well while ignoring them: --class-weighting balanced or "
           "--focal-gamma 2 weigh them up, and " +
           (labels ? "per-label" : "per-class") + " F1 says more than accuracy";
}

std::vector<std::string> distinctLabelNames(const std::vector<std::string>& labels) {
    std::map<std::string, std::size_t> looks;  // how many labels look like each shown form
    for (const auto& label : labels) {
        ++looks[nfc(trimmed(label))];
    }
    std::vector<std::string> names;
    for (const auto& label : labels) {
        const bool confusable =
            trimmed(label) != label || nfc(label) != label || looks[nfc(trimmed(label))] > 1 ||
            std::any_of(label.begin(), label.end(),
                        [](char c) { return static_cast<unsigned char>(c) < 0x20; });
        names.push_back(confusable ? jsonQuoted(label) : label);
    }
    return names;
}

}  // namespace bert
