#include "task/token/EntityConfusion.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>

namespace bert {

EntityConfusion entityConfusion(const std::vector<EntitySpan>& truth,
                                const std::vector<EntitySpan>& predicted) {
    using Span = std::pair<std::size_t, std::size_t>;
    // A reading of tags gives each span at most one entity; the maps keep the first if not.
    std::map<Span, std::string> trueBySpan;
    std::map<Span, std::string> predictedBySpan;
    std::set<std::string> types;
    for (const auto& entity : truth) {
        trueBySpan.emplace(Span{entity.begin, entity.end}, entity.type);
        types.insert(entity.type);
    }
    for (const auto& entity : predicted) {
        predictedBySpan.emplace(Span{entity.begin, entity.end}, entity.type);
        types.insert(entity.type);
    }
    EntityConfusion confusion;
    confusion.types.assign(types.begin(), types.end());
    const auto n = confusion.types.size();
    confusion.counts.assign(n, std::vector<std::size_t>(n, 0));
    confusion.missed.assign(n, 0);
    confusion.spurious.assign(n, 0);
    const auto indexOf = [&](const std::string& type) {
        return static_cast<std::size_t>(
            std::lower_bound(confusion.types.begin(), confusion.types.end(), type) -
            confusion.types.begin());
    };
    for (const auto& [span, type] : trueBySpan) {
        const auto found = predictedBySpan.find(span);
        if (found == predictedBySpan.end()) {
            ++confusion.missed[indexOf(type)];
        } else {
            ++confusion.counts[indexOf(type)][indexOf(found->second)];
        }
    }
    for (const auto& [span, type] : predictedBySpan) {
        if (!trueBySpan.contains(span)) {
            ++confusion.spurious[indexOf(type)];
        }
    }
    return confusion;
}

}  // namespace bert
