#include "export/OnnxExport.h"

#include "Error.h"

#ifdef BERT_STUDIO_HAS_ONNX

#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <string>
#include <vector>

#include "hf/ModelFolder.h"
#include "io/AtomicFile.h"
#include "model/onnx/EncoderGraph.h"
#include "model/onnx/FamilyGraph.h"

namespace bert {

bool onnxExportAvailable() {
    return true;
}

std::vector<std::string> onnxExportFamilies() {
    std::vector<std::string> names;
    for (const auto* graph : onnx_export::familyGraphs()) {
        names.push_back(graph->family().name);
    }
    return names;
}

namespace {

constexpr const char* kProducer = "BERT Studio";
/// ONNX Runtime maps external data at this alignment when a tensor's offset allows it.
constexpr std::int64_t kExternalDataAlignment = 4096;
/// Tensors smaller than this stay inside the graph even when weights go to external data, as
/// onnx's own converter does (constants and biases are not worth a seek).
constexpr std::int64_t kExternalDataMinimumBytes = 1024;

/// Moves the large initializers into dataFile (aligned), leaving references in the graph.
void moveWeightsToExternalData(onnx::GraphProto& graph, const std::filesystem::path& dataFile) {
    AtomicFile data(dataFile);
    std::int64_t offset = 0;
    const std::string padding(kExternalDataAlignment, '\0');
    for (auto& tensor : *graph.mutable_initializer()) {
        const auto length = static_cast<std::int64_t>(tensor.raw_data().size());
        if (length < kExternalDataMinimumBytes) {
            continue;
        }
        const auto aligned =
            (offset + kExternalDataAlignment - 1) / kExternalDataAlignment * kExternalDataAlignment;
        data.write(padding.data(), static_cast<std::size_t>(aligned - offset));
        data.write(tensor.raw_data().data(), tensor.raw_data().size());
        offset = aligned + length;
        tensor.clear_raw_data();
        tensor.set_data_location(onnx::TensorProto_DataLocation_EXTERNAL);
        for (const auto& [key, value] :
             {std::pair<std::string, std::string>{"location", dataFile.filename().string()},
              {"offset", std::to_string(aligned)},
              {"length", std::to_string(length)}}) {
            auto* entry = tensor.add_external_data();
            entry->set_key(key);
            entry->set_value(value);
        }
    }
    data.commit();
}

}  // namespace

OnnxModelSummary writeOnnxModel(const std::filesystem::path& file, const SequenceClassifier& model,
                                const OnnxExportOptions& options) {
    const auto& config = model.config();
    const auto& family = onnx_export::familyGraphOf(config);
    onnx::ModelProto proto;
    proto.set_ir_version(onnx::IR_VERSION);
    proto.set_producer_name(kProducer);
    proto.set_producer_version(BERT_STUDIO_VERSION_STRING);
    auto* opset = proto.add_opset_import();
    opset->set_domain("");
    opset->set_version(kOnnxOpset);
    auto* graph = proto.mutable_graph();
    graph->set_name(family.family().architecture(config.modelType, config.head));

    OnnxModelSummary summary;
    summary.inputNames = {"input_ids", "attention_mask"};
    if (family.takesTokenTypes(config)) {
        summary.inputNames.emplace_back("token_type_ids");
    }
    for (const auto& name : summary.inputNames) {
        onnx_export::describeValue(*graph->add_input(), name, onnx::TensorProto_DataType_INT64,
                                   {std::string("batch"), std::string("sequence")});
    }
    onnx_export::EncoderGraph encoder(*graph, config, stateDict(model));
    const auto logits = onnx_export::classifierGraph(
        encoder,
        onnx_export::GraphInputs{
            .inputIds = "input_ids",
            .attentionMask = "attention_mask",
            .tokenTypeIds = family.takesTokenTypes(config) ? "token_type_ids" : ""},
        family);
    encoder.builder().node("Identity", {logits}, {}, "logits");
    // A token head's logits are per token, padding rows included (as transformers' are).
    std::vector<std::variant<std::int64_t, std::string>> logitAxes = {std::string("batch")};
    if (config.head == HeadKind::Token) {
        logitAxes.emplace_back(std::string("sequence"));
    }
    logitAxes.emplace_back(config.numLabels());
    onnx_export::describeValue(*graph->add_output(), "logits", onnx::TensorProto_DataType_FLOAT,
                               logitAxes);
    for (std::size_t i = 0; i < config.labels.size(); ++i) {
        auto* entry = proto.add_metadata_props();
        entry->set_key("id2label." + std::to_string(i));
        entry->set_value(config.labels[i]);
    }

    std::int64_t weightBytes = 0;
    for (const auto& tensor : graph->initializer()) {
        weightBytes += static_cast<std::int64_t>(tensor.raw_data().size());
    }
    auto dataFile = file;
    dataFile += ".data";
    if (weightBytes > options.externalDataThresholdBytes) {
        moveWeightsToExternalData(*graph, dataFile);
        summary.externalData = true;
    } else {
        std::error_code ignored;
        std::filesystem::remove(dataFile, ignored);  // a stale one from an earlier export
    }
    std::string bytes;
    if (!proto.SerializeToString(&bytes)) {
        throw EngineError(file, "the ONNX graph could not be serialised");
    }
    writeFileAtomically(file, bytes);
    try {
        onnx::checker::check_model(file.string());
    } catch (const std::exception& error) {
        throw EngineError(
            file, std::string("the ONNX checker rejects the exported graph: ") + error.what());
    }
    return summary;
}

}  // namespace bert

#else  // no libonnx-dev at build time

namespace bert {

bool onnxExportAvailable() {
    return false;
}

std::vector<std::string> onnxExportFamilies() {
    return {};
}

OnnxModelSummary writeOnnxModel(const std::filesystem::path& file, const SequenceClassifier&,
                                const OnnxExportOptions&) {
    throw InputError(file,
                     "this build of BERT Studio has no ONNX export "
                     "(it was built without libonnx-dev); export as a transformers folder");
}

}  // namespace bert

#endif
