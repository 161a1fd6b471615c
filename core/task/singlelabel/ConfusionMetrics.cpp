#include "task/singlelabel/ConfusionMetrics.h"

namespace bert {

double accuracyOf(const ConfusionMatrix& confusion) {
    std::int64_t correct = 0;
    std::int64_t total = 0;
    for (std::size_t t = 0; t < confusion.size(); ++t) {
        for (std::size_t p = 0; p < confusion[t].size(); ++p) {
            total += confusion[t][p];
            correct += t == p ? confusion[t][p] : 0;
        }
    }
    return total > 0 ? static_cast<double>(correct) / static_cast<double>(total) : 0.0;
}

double macroF1Of(const ConfusionMatrix& confusion) {
    const std::size_t n = confusion.size();
    if (n == 0) {
        return 0.0;
    }
    double sum = 0.0;
    for (std::size_t c = 0; c < n; ++c) {
        const std::int64_t truePositive = confusion[c][c];
        std::int64_t predicted = 0;
        std::int64_t actual = 0;
        for (std::size_t k = 0; k < n; ++k) {
            predicted += confusion[k][c];
            actual += confusion[c][k];
        }
        const double denominator = static_cast<double>(predicted + actual);
        sum += denominator > 0 ? 2.0 * static_cast<double>(truePositive) / denominator : 0.0;
    }
    return sum / static_cast<double>(n);
}

std::vector<ClassMetrics> perClassOf(const ConfusionMatrix& confusion) {
    const std::size_t n = confusion.size();
    std::vector<ClassMetrics> rows(n);
    for (std::size_t c = 0; c < n; ++c) {
        auto& row = rows[c];
        for (std::size_t k = 0; k < n; ++k) {
            row.predicted += confusion[k][c];
            row.support += confusion[c][k];
        }
        const auto truePositive = static_cast<double>(confusion[c][c]);
        row.precision = row.predicted > 0 ? truePositive / static_cast<double>(row.predicted) : 0.0;
        row.recall = row.support > 0 ? truePositive / static_cast<double>(row.support) : 0.0;
        const double denominator = static_cast<double>(row.predicted + row.support);
        row.f1 = denominator > 0 ? 2.0 * truePositive / denominator : 0.0;
    }
    return rows;
}

nlohmann::json confusionToJson(const ConfusionMatrix& confusion) {
    if (confusion.size() <= kDenseConfusionClasses) {
        return confusion;
    }
    auto cells = nlohmann::json::array();
    for (std::size_t t = 0; t < confusion.size(); ++t) {
        for (std::size_t p = 0; p < confusion[t].size(); ++p) {
            if (confusion[t][p] != 0) {
                cells.push_back({t, p, confusion[t][p]});
            }
        }
    }
    return {{"classes", confusion.size()}, {"cells", std::move(cells)}};
}

ConfusionMatrix confusionFromJson(const nlohmann::json& json) {
    if (json.is_array()) {
        ConfusionMatrix dense;
        for (const auto& row : json) {
            if (!row.is_array() || row.size() != json.size()) {
                return {};
            }
            dense.emplace_back();
            for (const auto& count : row) {
                dense.back().push_back(count.is_number_integer() ? count.get<std::int64_t>() : 0);
            }
        }
        return dense;
    }
    if (!json.is_object() || !json.contains("classes") || !json["classes"].is_number_unsigned() ||
        !json.contains("cells") || !json["cells"].is_array()) {
        return {};
    }
    const auto classes = json["classes"].get<std::size_t>();
    if (classes > kReadableConfusionClasses) {
        return {};
    }
    ConfusionMatrix dense(classes, std::vector<std::int64_t>(classes, 0));
    for (const auto& cell : json["cells"]) {
        if (cell.is_array() && cell.size() == 3 && cell[0].is_number_unsigned() &&
            cell[1].is_number_unsigned() && cell[2].is_number_integer() &&
            cell[0].get<std::size_t>() < classes && cell[1].get<std::size_t>() < classes) {
            dense[cell[0].get<std::size_t>()][cell[1].get<std::size_t>()] =
                cell[2].get<std::int64_t>();
        }
    }
    return dense;
}

}  // namespace bert
