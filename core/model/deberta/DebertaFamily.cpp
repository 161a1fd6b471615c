// DeBERTa-v2's table (transformers' DebertaV2Config, model_type "deberta-v2"): DeBERTa-v3 and
// mDeBERTa-v3. BERT's layer shapes under other names (attention.self.query_proj/key_proj/
// value_proj), word embeddings with absolute positions only when position_biased_input (v3: none)
// and token types only when type_vocab_size > 0 (v3: none), and disentangled attention: each layer
// adds content-to-position and position-to-content scores over log-bucketed relative positions,
// read from one table shared by every layer (encoder.rel_embeddings, LayerNorm'd by
// encoder.LayerNorm) through the layer's own query and key projections (share_att_key). The
// sequence head is the ContextPooler (pooler.dense on the first token, pooler_hidden_act) and the
// classifier; the token head is dropout and the classifier.

#include <cmath>

#include "Error.h"
#include "io/Json.h"
#include "model/FamilyTraits.h"

namespace bert {

namespace {

EncoderConfig debertaDefaults() {
    // DebertaV2Config's defaults (deberta-v2-xlarge's sizes) and the getattr defaults of the
    // keys the config class does not declare (position_buckets, share_att_key, norm_rel_ebd).
    EncoderConfig config;
    config.modelType = "deberta-v2";
    config.vocabSize = 128100;
    config.hiddenSize = 1536;
    config.numHiddenLayers = 24;
    config.numAttentionHeads = 24;
    config.intermediateSize = 6144;
    config.typeVocabSize = 0;
    config.layerNormEps = 1e-7;
    config.classifierActivation = "gelu";  // pooler_hidden_act
    return config;
}

std::vector<ConfigKey> debertaKeys() {
    return {
        {"vocab_size", &EncoderConfig::vocabSize},
        {"hidden_size", &EncoderConfig::hiddenSize},
        {"num_hidden_layers", &EncoderConfig::numHiddenLayers},
        {"num_attention_heads", &EncoderConfig::numAttentionHeads},
        {"intermediate_size", &EncoderConfig::intermediateSize},
        {"hidden_act", &EncoderConfig::hiddenAct},
        {"hidden_dropout_prob", &EncoderConfig::hiddenDropoutProb},
        {"attention_probs_dropout_prob", &EncoderConfig::attentionProbsDropoutProb},
        {"cls_dropout", &EncoderConfig::classifierDropout},
        {"max_position_embeddings", &EncoderConfig::maxPositionEmbeddings},
        {"type_vocab_size", &EncoderConfig::typeVocabSize},
        {"layer_norm_eps", &EncoderConfig::layerNormEps},
        {"initializer_range", &EncoderConfig::initializerRange},
        {"pad_token_id", &EncoderConfig::padTokenId},
        {"relative_attention", &EncoderConfig::relativeAttention},
        {"max_relative_positions", &EncoderConfig::maxRelativePositions},
        {"position_buckets", &EncoderConfig::positionBuckets},
        {"position_biased_input", &EncoderConfig::positionBiasedInput},
        {"share_att_key", &EncoderConfig::shareAttKey},
        {"norm_rel_ebd", &EncoderConfig::normRelEbd},
        {"pooler_dropout", &EncoderConfig::poolerDropout},
        {"pooler_hidden_act", &EncoderConfig::classifierActivation},
    };
}

/// The parts of a "|"-separated list, trimmed and lower-cased (pos_att_type, norm_rel_ebd).
std::vector<std::string> barList(const std::string& text) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        auto end = text.find('|', start);
        if (end == std::string::npos) {
            end = text.size();
        }
        auto part = text.substr(start, end - start);
        const auto first = part.find_first_not_of(" \t");
        const auto last = part.find_last_not_of(" \t");
        part = first == std::string::npos ? "" : part.substr(first, last - first + 1);
        for (auto& c : part) {
            c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        }
        if (!part.empty()) {
            parts.push_back(part);
        }
        start = end + 1;
    }
    return parts;
}

void finishDeberta(EncoderConfig& config, const nlohmann::json& json,
                   const std::filesystem::path& source) {
    // pos_att_type: "p2c|c2p" (the checkpoints' form) or ["p2c", "c2p"]; null: none.
    std::vector<std::string> types;
    if (const auto field = json.find("pos_att_type"); field != json.end() && !field->is_null()) {
        if (field->is_string()) {
            types = barList(field->get<std::string>());
        } else if (field->is_array()) {
            for (const auto& item : *field) {
                if (!item.is_string()) {
                    throw InputError(source, "field \"pos_att_type\" holds " + item.dump() +
                                                 ", which is not c2p or p2c");
                }
                types.push_back(item.get<std::string>());
            }
        } else {
            throw InputError(source,
                             "field \"pos_att_type\" must be a string such as "
                             "\"p2c|c2p\" or a list of them");
        }
    }
    config.contentToPosition = false;
    config.positionToContent = false;
    for (const auto& type : types) {
        if (type == "c2p") {
            config.contentToPosition = true;
        } else if (type == "p2c") {
            config.positionToContent = true;
        } else {
            throw InputError(
                source, "pos_att_type \"" + type + "\" is not supported (supported: c2p, p2c)");
        }
    }
    const auto norms = barList(config.normRelEbd);
    for (const auto& norm : norms) {
        if (norm != "layer_norm" && norm != "none") {
            throw InputError(source, "norm_rel_ebd \"" + norm +
                                         "\" is not supported (supported: layer_norm, none)");
        }
    }
    auto refuse = [&](const std::string& what) {
        throw InputError(source, what +
                                     " is not supported (DeBERTa-v3 and mDeBERTa-v3 "
                                     "checkpoints are)");
    };
    if (!config.relativeAttention) {
        refuse("relative_attention false");
    }
    if (!config.shareAttKey) {
        refuse("share_att_key false (separate pos_key_proj and pos_query_proj)");
    }
    if (jsonField<std::int64_t>(json, "conv_kernel_size", 0, source) > 0) {
        refuse("conv_kernel_size (the convolution after the first layer of deberta-v2-xlarge)");
    }
    if (json.contains("embedding_size") && !json["embedding_size"].is_null() &&
        jsonField<std::int64_t>(json, "embedding_size", config.hiddenSize, source) !=
            config.hiddenSize) {
        refuse("embedding_size other than hidden_size");
    }
    if (jsonField<std::int64_t>(json, "pooler_hidden_size", config.hiddenSize, source) !=
        config.hiddenSize) {
        refuse("pooler_hidden_size other than hidden_size");
    }
    if (jsonField<std::int64_t>(json, "attention_head_size", config.headDim(), source) !=
        config.headDim()) {
        refuse("attention_head_size other than hidden_size / num_attention_heads");
    }
    if (!(config.poolerDropout >= 0.0 && config.poolerDropout < 1.0)) {
        throw InputError(source, "field \"pooler_dropout\" must be a probability in [0, 1), not " +
                                     std::to_string(config.poolerDropout));
    }
    if (config.maxRelativePositions > 1'048'576 || config.positionBuckets > 65'536) {
        throw InputError(source, "max_relative_positions or position_buckets is too large");
    }
}

/// The table's rows: 2 x position_buckets, or 2 x max_relative_positions without buckets.
std::int64_t relativeRows(const EncoderConfig& m) {
    const auto maxRelative =
        m.maxRelativePositions < 1 ? m.maxPositionEmbeddings : m.maxRelativePositions;
    return 2 * (m.positionBuckets > 0 ? m.positionBuckets : maxRelative);
}

bool normalisesTable(const EncoderConfig& m) {
    for (const auto& part : barList(m.normRelEbd)) {
        if (part == "layer_norm") {
            return true;
        }
    }
    return false;
}

ParameterCounts debertaCounts(const EncoderConfig& m) {
    auto counts = bertLayerCounts(m);  // query/key/value_proj, output and feed-forward: BERT's
    const std::int64_t h = m.hiddenSize;
    // Word embeddings, absolute positions and token types where the config has them, their
    // LayerNorm, and the relative position table with its LayerNorm, which belong to the
    // embedding stage (freezing the embeddings freezes them).
    counts.embeddings =
        m.vocabSize * h + (m.positionBiasedInput ? m.maxPositionEmbeddings * h : 0) +
        m.typeVocabSize * h + 2 * h + relativeRows(m) * h + (normalisesTable(m) ? 2 * h : 0);
    const std::int64_t classifier = h * m.numLabels() + m.numLabels();
    // Sequence: pooler.dense + classifier; token: the classifier alone.
    counts.head = m.head == HeadKind::Token ? classifier : (h * h + h) + classifier;
    return counts;
}

ActivationShape debertaActivations(const EncoderConfig& m, const ActivationContext& context) {
    auto shape = bertLayerActivations(m, context);
    const std::int64_t e = context.autocast ? 2 : 4;
    // The queries and keys once more: the disentangled terms' products with the position table
    // save their own contiguous copies (matmul over broadcast heads).
    shape.layerBytesPerToken += 2 * e * m.hiddenSize;
    if (m.head == HeadKind::Token) {
        shape.headBytesPerToken =
            dropoutClassifierBytesPerToken(m.hiddenSize, m.hiddenDropoutProb, context);
    } else {
        shape.linearWeights += m.hiddenSize * m.hiddenSize;  // pooler.dense
    }
    // Every layer's scores carry its content-to-position and position-to-content terms, joined
    // with the padding mask as one additive mask G x heads x S x S (attentionBiasBytes, as
    // MPNet's: CUDA's kernel keeps it), made from [G, heads, S, table rows] products with the
    // position table, whose gathers keep them for backward (gather's backward reads its input):
    // each layer keeps both.
    shape.attentionBiasBytes = e;
    const std::int64_t terms = (m.contentToPosition ? 1 : 0) + (m.positionToContent ? 1 : 0);
    shape.relativeScoreBytesPerToken = terms * m.numAttentionHeads * relativeRows(m) * e;
    shape.layerBytesPerToken += shape.relativeScoreBytesPerToken;
    return shape;
}

}  // namespace

const FamilyTraits& debertaFamily() {
    static const FamilyTraits traits{
        .name = "DeBERTa-v2",
        .modelTypes = {{"deberta-v2", "DebertaV2", "DebertaV2Tokenizer"}},
        .defaults = debertaDefaults,
        .keys = debertaKeys(),
        .finishConfig = finishDeberta,
        .countParameters = debertaCounts,
        .activations = debertaActivations,
        .fp16Overflows = true,
        .basePrefix = "deberta.",
        // ContextPooler on the first token: dropout (pooler_dropout), pooler.dense,
        // pooler_hidden_act; then dropout (cls_dropout, else the hidden dropout), classifier.
        .sequenceHead = {.dropoutFirst = true,
                         .dense = "pooler.dense",
                         .firstDropout = [](const EncoderConfig& c) { return c.poolerDropout; }},
        // DebertaV2ForTokenClassification: dropout (hidden_dropout_prob), classifier.
        .tokenHead = {.dropout = [](const EncoderConfig& c) { return c.hiddenDropoutProb; }},
    };
    return traits;
}

}  // namespace bert
