#pragma once

// An ONNX graph written node by node with the ONNX protobuf library (libonnx-dev): operators,
// fp32 weights and small constants, every value named uniquely. Only the ONNX export's own files
// include this (they are compiled with ONNX's definitions, see core/CMakeLists.txt).

#include <cstdint>
#include <onnx/onnx_pb.h>
#include <string>
#include <variant>
#include <vector>

#include <ATen/core/Tensor.h>

namespace bert::onnx_export {

using Shape = std::vector<std::int64_t>;

onnx::AttributeProto intAttribute(const std::string& name, std::int64_t value);
onnx::AttributeProto floatAttribute(const std::string& name, float value);
onnx::AttributeProto intsAttribute(const std::string& name,
                                   const std::vector<std::int64_t>& values);

/// A graph input or output with named (dynamic) and fixed dimensions.
void describeValue(onnx::ValueInfoProto& value, const std::string& name, int elementType,
                   const std::vector<std::variant<std::int64_t, std::string>>& dims);

class GraphBuilder {
public:
    explicit GraphBuilder(onnx::GraphProto& graph) : graph_(graph) {}

    /// One node with a single output, named `output` or, when empty, after the operator.
    std::string node(const std::string& op, const std::vector<std::string>& inputs,
                     std::vector<onnx::AttributeProto> attributes = {}, std::string output = {});
    /// One node with `outputs` outputs (Split), named after the operator.
    std::vector<std::string> nodes(const std::string& op, const std::vector<std::string>& inputs,
                                   int outputs, std::vector<onnx::AttributeProto> attributes = {});

    /// An fp32 weight named `name`; row-major, made contiguous here.
    std::string weight(const std::string& name, const at::Tensor& tensor);
    /// A small int64 tensor (a shape, axes, an index); an empty shape gives a scalar. Constants
    /// are named after `name` and made once: asking again for the same one gives the same value.
    std::string int64s(const std::string& name, const std::vector<std::int64_t>& values,
                       const Shape& shape);
    /// An int64 scalar constant.
    std::string int64Scalar(const std::string& name, std::int64_t value) {
        return int64s(name, {value}, {});
    }
    /// A float scalar constant.
    std::string scalar(const std::string& name, float value);

private:
    /// A new initializer named after name, known by key (its name, type and values).
    onnx::TensorProto* addConstant(const std::string& key, const std::string& name);

    onnx::GraphProto& graph_;
    int counter_ = 0;
    std::map<std::string, std::string> constants_;  ///< name, type and values -> its value
};

}  // namespace bert::onnx_export
