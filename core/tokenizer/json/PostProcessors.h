#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include <nlohmann/json.hpp>

#include "tokenizer/json/JsonContext.h"

namespace bert::tokenizer_json {

/// Ids and segment ids of one sequence on its way through the post-processor.
struct Sequence {
    std::vector<std::int32_t> ids;
    std::vector<std::int32_t> typeIds;
};

/// tokenizer.json's "post_processor": adds the model's special tokens around one sequence or
/// a pair and sets the segment ids, as the reference's processor of the same type (the
/// sequences' segment ids start as 0 and 1, then each processor in turn rewrites them).
class PostProcessor {
public:
    virtual ~PostProcessor() = default;
    /// How many ids it adds to one sequence (pair false) or a pair.
    virtual std::size_t added(bool pair) const = 0;
    /// One or two sequences in, sequences out (concatenated by the caller).
    virtual std::vector<Sequence> process(std::vector<Sequence> sequences) const = 0;
};

/// Builds the processor a JSON object describes: TemplateProcessing, BertProcessing,
/// RobertaProcessing, ByteLevel, Sequence. Throws InputError naming the file and the field.
std::unique_ptr<const PostProcessor> parsePostProcessor(const nlohmann::json& value,
                                                        const JsonContext& context);

/// What a missing post-processor does: the sequences as they are, segment ids 0 and 1.
std::vector<Sequence> processWithout(std::vector<Sequence> sequences);

}  // namespace bert::tokenizer_json
