#include "model/onnx/GraphBuilder.h"

#include <cstring>

#include <ATen/ATen.h>

namespace bert::onnx_export {

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

std::string GraphBuilder::node(const std::string& op, const std::vector<std::string>& inputs,
                               std::vector<onnx::AttributeProto> attributes, std::string output) {
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

std::vector<std::string> GraphBuilder::nodes(const std::string& op,
                                             const std::vector<std::string>& inputs, int outputs,
                                             std::vector<onnx::AttributeProto> attributes) {
    const auto name = op + "_" + std::to_string(counter_++);
    auto* proto = graph_.add_node();
    proto->set_op_type(op);
    proto->set_name(name);
    for (const auto& input : inputs) {
        proto->add_input(input);
    }
    std::vector<std::string> names;
    for (int i = 0; i < outputs; ++i) {
        names.push_back(name + "_" + std::to_string(i));
        proto->add_output(names.back());
    }
    for (auto& attribute : attributes) {
        *proto->add_attribute() = std::move(attribute);
    }
    return names;
}

std::string GraphBuilder::weight(const std::string& name, const at::Tensor& tensor) {
    const auto data = tensor.detach().to(at::kFloat).contiguous();
    auto* proto = graph_.add_initializer();
    proto->set_name(name);
    proto->set_data_type(onnx::TensorProto_DataType_FLOAT);
    for (const auto size : data.sizes()) {
        proto->add_dims(size);
    }
    proto->set_raw_data(data.data_ptr(), static_cast<std::size_t>(data.nbytes()));
    return name;
}

std::string GraphBuilder::int64s(const std::string& name, const std::vector<std::int64_t>& values,
                                 const Shape& shape) {
    std::string key = name + "|int64|";
    for (const auto size : shape) {
        key += std::to_string(size) + ",";
    }
    key += "|";
    for (const auto value : values) {
        key += std::to_string(value) + ",";
    }
    if (const auto made = constants_.find(key); made != constants_.end()) {
        return made->second;
    }
    auto* proto = addConstant(key, name);
    proto->set_data_type(onnx::TensorProto_DataType_INT64);
    for (const auto size : shape) {
        proto->add_dims(size);
    }
    for (const auto value : values) {
        proto->add_int64_data(value);
    }
    return proto->name();
}

std::string GraphBuilder::scalar(const std::string& name, float value) {
    // The value's bits, so that every float has its own key.
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    const auto key = name + "|float|" + std::to_string(bits);
    if (const auto made = constants_.find(key); made != constants_.end()) {
        return made->second;
    }
    auto* proto = addConstant(key, name);
    proto->set_data_type(onnx::TensorProto_DataType_FLOAT);
    proto->add_float_data(value);
    return proto->name();
}

onnx::TensorProto* GraphBuilder::addConstant(const std::string& key, const std::string& name) {
    auto* proto = graph_.add_initializer();
    proto->set_name("const_" + name + "_" + std::to_string(counter_++));
    constants_.emplace(key, proto->name());
    return proto;
}

}  // namespace bert::onnx_export
