#include "export/onnx/FamilyGraph.h"

#include "Error.h"

namespace bert::onnx_export {

const FamilyGraph& familyGraphOf(const EncoderConfig& config) {
    // Each family's graph; a new family adds a line here.
    static const FamilyGraph* const graphs[] = {&bertGraph(), &robertaGraph(), &distilBertGraph(),
                                                &electraGraph(), &modernBertGraph()};
    const auto& family = familyOf(config.modelType);
    for (const auto* graph : graphs) {
        if (&graph->family() == &family) {
            return *graph;
        }
    }
    throw EngineError("the ONNX export has no graph for the " + family.name + " family");
}

}  // namespace bert::onnx_export
