#include "export/OnnxExport.h"

#include "Error.h"

#ifdef BERT_STUDIO_HAS_ONNX

#include <cmath>
#include <limits>
#include <map>
#include <numbers>
#include <onnx/checker.h>
#include <onnx/onnx_pb.h>
#include <string>
#include <variant>
#include <vector>

#include <ATen/ATen.h>

#include "hf/ModelFolder.h"
#include "io/AtomicFile.h"

namespace bert {

bool onnxExportAvailable() {
    return true;
}

namespace {

constexpr const char* kProducer = "BERT Studio";
/// ONNX Runtime maps external data at this alignment when a tensor's offset allows it.
constexpr std::int64_t kExternalDataAlignment = 4096;
/// Tensors smaller than this stay inside the graph even when weights go to external data, as
/// onnx's own converter does (constants and biases are not worth a seek).
constexpr std::int64_t kExternalDataMinimumBytes = 1024;
/// Coefficient of the cubic term in the tanh approximation of GELU (Hendrycks and Gimpel).
constexpr float kGeluTanhCubic = 0.044715F;

using Shape = std::vector<std::int64_t>;

/// Builds the graph node by node, naming every intermediate value uniquely.
class GraphBuilder {
public:
    explicit GraphBuilder(onnx::GraphProto& graph) : graph_(graph) {}

    /// One node with a single output, named `output` or, when empty, after the operator.
    std::string node(const std::string& op, const std::vector<std::string>& inputs,
                     std::vector<onnx::AttributeProto> attributes = {}, std::string output = {}) {
        if (output.empty()) {
            output = op + "_" + std::to_string(counter_);
        }
        ++counter_;
        auto* proto = graph_.add_node();
        proto->set_op_type(op);
        proto->set_name(output);
        for (const auto& input : inputs) {
            proto->add_input(input);
        }
        proto->add_output(output);
        for (auto& attribute : attributes) {
            *proto->add_attribute() = std::move(attribute);
        }
        return output;
    }

    /// An fp32 weight; row-major, made contiguous here.
    std::string weight(const std::string& name, const at::Tensor& tensor) {
        const auto data = tensor.to(at::kFloat).contiguous();
        auto* proto = graph_.add_initializer();
        proto->set_name(name);
        proto->set_data_type(onnx::TensorProto_DataType_FLOAT);
        for (const auto size : data.sizes()) {
            proto->add_dims(size);
        }
        proto->set_raw_data(data.data_ptr(), static_cast<std::size_t>(data.nbytes()));
        return name;
    }

    /// A small int64 tensor (a shape, axes, an index); an empty shape gives a scalar.
    std::string int64s(const std::string& name, const std::vector<std::int64_t>& values,
                       const Shape& shape) {
        auto* proto = graph_.add_initializer();
        proto->set_name(name);
        proto->set_data_type(onnx::TensorProto_DataType_INT64);
        for (const auto size : shape) {
            proto->add_dims(size);
        }
        for (const auto value : values) {
            proto->add_int64_data(value);
        }
        return name;
    }

    /// A float scalar constant.
    std::string scalar(const std::string& name, float value) {
        auto* proto = graph_.add_initializer();
        proto->set_name(name);
        proto->set_data_type(onnx::TensorProto_DataType_FLOAT);
        proto->add_float_data(value);
        return name;
    }

private:
    onnx::GraphProto& graph_;
    int counter_ = 0;
};

onnx::AttributeProto intAttribute(const std::string& name, std::int64_t value) {
    onnx::AttributeProto attribute;
    attribute.set_name(name);
    attribute.set_type(onnx::AttributeProto_AttributeType_INT);
    attribute.set_i(value);
    return attribute;
}

onnx::AttributeProto floatAttribute(const std::string& name, float value) {
    onnx::AttributeProto attribute;
    attribute.set_name(name);
    attribute.set_type(onnx::AttributeProto_AttributeType_FLOAT);
    attribute.set_f(value);
    return attribute;
}

onnx::AttributeProto intsAttribute(const std::string& name,
                                   const std::vector<std::int64_t>& values) {
    onnx::AttributeProto attribute;
    attribute.set_name(name);
    attribute.set_type(onnx::AttributeProto_AttributeType_INTS);
    for (const auto value : values) {
        attribute.add_ints(value);
    }
    return attribute;
}

/// A graph input or output with named (dynamic) and fixed dimensions.
void describeValue(onnx::ValueInfoProto& value, const std::string& name, int elementType,
                   const std::vector<std::variant<std::int64_t, std::string>>& dims) {
    value.set_name(name);
    auto* tensor = value.mutable_type()->mutable_tensor_type();
    tensor->set_elem_type(elementType);
    auto* shape = tensor->mutable_shape();
    for (const auto& dim : dims) {
        auto* proto = shape->add_dim();
        if (std::holds_alternative<std::string>(dim)) {
            proto->set_dim_param(std::get<std::string>(dim));
        } else {
            proto->set_dim_value(std::get<std::int64_t>(dim));
        }
    }
}

/// The graph of BertForSequenceClassification in eval mode over the model's own weights.
class ClassifierGraph {
public:
    ClassifierGraph(onnx::GraphProto& graph, const SequenceClassifier& model)
        : build_(graph), config_(model.config()) {
        for (auto& [name, tensor] : stateDict(model)) {
            weights_.emplace(name, std::move(tensor));
        }
    }

    /// Adds every node; the graph's output is the value named `output`.
    void build(const std::string& output, const std::string& inputIds,
               const std::string& attentionMask, const std::string& tokenTypeIds) {
        const auto zero = build_.int64s("const_zero", {0}, {});
        const auto one = build_.int64s("const_one", {1}, {});
        // Positions 0..S-1, S taken from input_ids at run time.
        const auto sequence = build_.node("Gather", {build_.node("Shape", {inputIds}), one},
                                          {intAttribute("axis", 0)});
        const auto positions = build_.node("Range", {zero, sequence, one});

        const auto words =
            build_.node("Gather", {raw("bert.embeddings.word_embeddings.weight"), inputIds});
        const auto positioned =
            build_.node("Gather", {raw("bert.embeddings.position_embeddings.weight"), positions});
        const auto types = build_.node(
            "Gather", {raw("bert.embeddings.token_type_embeddings.weight"), tokenTypeIds});
        auto hidden =
            layerNorm(build_.node("Add", {build_.node("Add", {words, positioned}), types}),
                      "bert.embeddings.LayerNorm");

        // Additive mask [B, 1, 1, S]: 0 where attended, the lowest float where padding, as the
        // engine (model/Attention.h additiveAttentionMask) and transformers do.
        const auto keep = build_.node("Cast", {attentionMask},
                                      {intAttribute("to", onnx::TensorProto_DataType_FLOAT)});
        const auto masked = build_.node(
            "Mul", {build_.node("Sub", {build_.scalar("const_one_f", 1.0F), keep}),
                    build_.scalar("const_lowest_f", std::numeric_limits<float>::lowest())});
        const auto bias =
            build_.node("Unsqueeze", {masked, build_.int64s("const_axes_1_2", {1, 2}, {2})});

        for (std::int64_t i = 0; i < config_.numHiddenLayers; ++i) {
            hidden = layer(hidden, bias, "bert.encoder.layer." + std::to_string(i) + ".");
        }
        // Pooler: the first token's hidden state, dense, tanh.
        const auto first = build_.node("Gather", {hidden, zero}, {intAttribute("axis", 1)});
        const auto pooled = build_.node("Tanh", {linear(first, "bert.pooler.dense")});
        build_.node("Identity", {linear(pooled, "classifier")}, {}, output);
    }

private:
    /// A weight by its transformers name, as stored.
    std::string raw(const std::string& name) { return build_.weight(name, weights_.at(name)); }

    /// x @ W^T + b with W stored transposed ([in, out]) so MatMul needs no Transpose node.
    std::string linear(const std::string& input, const std::string& prefix) {
        const auto weight = build_.weight(prefix + ".weight", weights_.at(prefix + ".weight").t());
        return build_.node("Add", {build_.node("MatMul", {input, weight}), raw(prefix + ".bias")});
    }

    std::string layerNorm(const std::string& input, const std::string& prefix) {
        return build_.node("LayerNormalization",
                           {input, raw(prefix + ".weight"), raw(prefix + ".bias")},
                           {intAttribute("axis", -1),
                            floatAttribute("epsilon", static_cast<float>(config_.layerNormEps))});
    }

    /// [B, S, H] -> [B, heads, S, headDim], or [B, heads, headDim, S] for keys.
    std::string splitHeads(const std::string& input, bool forKeys) {
        const auto split = build_.node("Reshape", {input, headShape()});
        return build_.node(
            "Transpose", {split},
            {intsAttribute("perm", forKeys ? Shape{0, 2, 3, 1} : Shape{0, 2, 1, 3})});
    }

    std::string headShape() {
        if (headShape_.empty()) {
            headShape_ = build_.int64s("const_head_shape",
                                       {0, 0, config_.numAttentionHeads, config_.headDim()}, {4});
        }
        return headShape_;
    }

    std::string activation(const std::string& x) {
        switch (config_.activation()) {
            case Activation::Gelu: {
                // 0.5 x (1 + erf(x / sqrt 2))
                const auto erf = build_.node(
                    "Erf", {build_.node("Div", {x, build_.scalar(unique("const_sqrt2"),
                                                                 std::numbers::sqrt2_v<float>)})});
                return halfTimesOnePlus(x, erf);
            }
            case Activation::GeluTanh: {
                // 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))
                const auto cube = build_.node("Mul", {build_.node("Mul", {x, x}), x});
                const auto inner = build_.node(
                    "Add", {x, build_.node("Mul", {cube, build_.scalar(unique("const_gelu_cubic"),
                                                                       kGeluTanhCubic)})});
                const float scale = std::sqrt(2.0F / std::numbers::pi_v<float>);
                const auto tanh = build_.node(
                    "Tanh", {build_.node(
                                "Mul", {inner, build_.scalar(unique("const_gelu_scale"), scale)})});
                return halfTimesOnePlus(x, tanh);
            }
            case Activation::Relu:
                return build_.node("Relu", {x});
            case Activation::Silu:
                return build_.node("Mul", {x, build_.node("Sigmoid", {x})});
            case Activation::Tanh:
                return build_.node("Tanh", {x});
        }
        throw EngineError("an activation the ONNX export does not know: " + config_.hiddenAct);
    }

    std::string halfTimesOnePlus(const std::string& x, const std::string& term) {
        const auto onePlus = build_.node("Add", {build_.scalar(unique("const_one_a"), 1.0F), term});
        return build_.node(
            "Mul", {build_.node("Mul", {x, build_.scalar(unique("const_half"), 0.5F)}), onePlus});
    }

    std::string layer(const std::string& hidden, const std::string& bias,
                      const std::string& prefix) {
        const auto query = splitHeads(linear(hidden, prefix + "attention.self.query"), false);
        const auto key = splitHeads(linear(hidden, prefix + "attention.self.key"), true);
        const auto value = splitHeads(linear(hidden, prefix + "attention.self.value"), false);
        const auto scale = 1.0F / std::sqrt(static_cast<float>(config_.headDim()));
        const auto scores =
            build_.node("Add", {build_.node("Mul", {build_.node("MatMul", {query, key}),
                                                    build_.scalar(unique("const_scale"), scale)}),
                                bias});
        const auto probabilities = build_.node("Softmax", {scores}, {intAttribute("axis", -1)});
        const auto context =
            build_.node("Transpose", {build_.node("MatMul", {probabilities, value})},
                        {intsAttribute("perm", {0, 2, 1, 3})});
        const auto merged = build_.node(
            "Reshape",
            {context, build_.int64s(unique("const_merge_shape"), {0, 0, config_.hiddenSize}, {3})});
        const auto attended = layerNorm(
            build_.node("Add", {linear(merged, prefix + "attention.output.dense"), hidden}),
            prefix + "attention.output.LayerNorm");
        const auto intermediate = activation(linear(attended, prefix + "intermediate.dense"));
        return layerNorm(
            build_.node("Add", {linear(intermediate, prefix + "output.dense"), attended}),
            prefix + "output.LayerNorm");
    }

    /// Constants are small; each use gets its own name so the builder never repeats one.
    std::string unique(const std::string& name) {
        return name + "_" + std::to_string(constants_++);
    }

    GraphBuilder build_;
    const EncoderConfig& config_;
    std::map<std::string, at::Tensor> weights_;
    std::string headShape_;
    int constants_ = 0;
};

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

void writeOnnxModel(const std::filesystem::path& file, const SequenceClassifier& model,
                    const OnnxExportOptions& options) {
    if (model.config().modelType != "bert") {
        throw InputError(file, "ONNX export of " + model.config().modelType +
                                   " models is not available in this version; export a "
                                   "transformers folder instead");
    }
    onnx::ModelProto proto;
    proto.set_ir_version(onnx::IR_VERSION);
    proto.set_producer_name(kProducer);
    proto.set_producer_version(BERT_STUDIO_VERSION_STRING);
    auto* opset = proto.add_opset_import();
    opset->set_domain("");
    opset->set_version(kOnnxOpset);
    auto* graph = proto.mutable_graph();
    graph->set_name("bert_for_sequence_classification");

    const auto& config = model.config();
    for (const char* name : {"input_ids", "attention_mask", "token_type_ids"}) {
        describeValue(*graph->add_input(), name, onnx::TensorProto_DataType_INT64,
                      {std::string("batch"), std::string("sequence")});
    }
    ClassifierGraph classifier(*graph, model);
    classifier.build("logits", "input_ids", "attention_mask", "token_type_ids");
    describeValue(*graph->add_output(), "logits", onnx::TensorProto_DataType_FLOAT,
                  {std::string("batch"), config.numLabels()});
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
}

}  // namespace bert

#else  // no libonnx-dev at build time

namespace bert {

bool onnxExportAvailable() {
    return false;
}

void writeOnnxModel(const std::filesystem::path& file, const SequenceClassifier&,
                    const OnnxExportOptions&) {
    throw InputError(file,
                     "this build of BERT Studio has no ONNX export "
                     "(it was built without libonnx-dev); export as a transformers folder");
}

}  // namespace bert

#endif
