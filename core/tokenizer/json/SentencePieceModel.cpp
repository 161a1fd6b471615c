// spm.model read as protobuf's wire format. Three of ModelProto's fields are needed, so a
// reader of varints and length-delimited fields does what a protobuf dependency would; every
// length is checked against what is left, so a damaged file ends in a message, never a read
// past the end.
#include "tokenizer/json/SentencePieceModel.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "Error.h"
#include "text/Utf8.h"

namespace bert {

namespace {

constexpr int kVarint = 0;
constexpr int kFixed64 = 1;
constexpr int kLengthDelimited = 2;
constexpr int kFixed32 = 5;

// ModelProto.SentencePiece.Type (sentencepiece_model.proto).
constexpr std::uint64_t kNormal = 1;
constexpr std::uint64_t kControl = 3;
constexpr std::uint64_t kUserDefined = 4;
// TrainerSpec.ModelType.
constexpr std::uint64_t kUnigram = 1;

class WireReader {
public:
    WireReader(std::string_view bytes, const std::filesystem::path& source)
        : bytes_(bytes), source_(source) {}

    bool done() const { return position_ >= bytes_.size(); }

    std::uint64_t varint() {
        std::uint64_t value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (done()) {
                fail("ends inside a number");
            }
            const auto byte = static_cast<std::uint8_t>(bytes_[position_++]);
            value |= static_cast<std::uint64_t>(byte & 0x7F) << shift;
            if ((byte & 0x80) == 0) {
                return value;
            }
        }
        fail("has a number longer than ten bytes");
    }

    std::string_view take(std::size_t count) {
        if (count > bytes_.size() - position_) {
            fail("has a field longer than what is left of the file");
        }
        const auto piece = bytes_.substr(position_, count);
        position_ += count;
        return piece;
    }

    std::string_view lengthDelimited() { return take(static_cast<std::size_t>(varint())); }

    float fixed32Float() {
        const auto raw = take(4);
        std::uint32_t bits = 0;
        for (int i = 3; i >= 0; --i) {
            bits = (bits << 8) | static_cast<std::uint8_t>(raw[static_cast<std::size_t>(i)]);
        }
        float value = 0;
        std::memcpy(&value, &bits, sizeof value);
        return value;
    }

    void skip(int wireType) {
        switch (wireType) {
            case kVarint:
                varint();
                return;
            case kFixed64:
                take(8);
                return;
            case kLengthDelimited:
                lengthDelimited();
                return;
            case kFixed32:
                take(4);
                return;
            default:
                fail("has a field of protobuf wire type " + std::to_string(wireType) +
                     ", which a SentencePiece model does not use");
        }
    }

    [[noreturn]] void fail(const std::string& problem) const {
        throw InputError(source_,
                         "is not a SentencePiece model file that BERT Studio can read: "
                         "it " +
                             problem);
    }

private:
    std::string_view bytes_;
    const std::filesystem::path& source_;
    std::size_t position_ = 0;
};

struct Piece {
    std::string text;
    float score = 0;
    std::uint64_t type = kNormal;
};

Piece readPiece(std::string_view bytes, const std::filesystem::path& source) {
    WireReader reader(bytes, source);
    Piece piece;
    while (!reader.done()) {
        const auto tag = reader.varint();
        const auto field = tag >> 3;
        const int wireType = static_cast<int>(tag & 7);
        if (field == 1 && wireType == kLengthDelimited) {
            piece.text = std::string(reader.lengthDelimited());
        } else if (field == 2 && wireType == kFixed32) {
            piece.score = reader.fixed32Float();
        } else if (field == 3 && wireType == kVarint) {
            piece.type = reader.varint();
        } else {
            reader.skip(wireType);
        }
    }
    return piece;
}

}  // namespace

nlohmann::json sentencePieceTokenizerJson(std::string_view bytes,
                                          const std::filesystem::path& source) {
    WireReader reader(bytes, source);
    std::vector<Piece> pieces;
    std::uint64_t unkId = 0;
    std::uint64_t modelType = kUnigram;
    while (!reader.done()) {
        const auto tag = reader.varint();
        const auto field = tag >> 3;
        const int wireType = static_cast<int>(tag & 7);
        if (field == 1 && wireType == kLengthDelimited) {
            pieces.push_back(readPiece(reader.lengthDelimited(), source));
        } else if (field == 2 && wireType == kLengthDelimited) {
            WireReader trainer(reader.lengthDelimited(), source);
            while (!trainer.done()) {
                const auto trainerTag = trainer.varint();
                const int trainerWire = static_cast<int>(trainerTag & 7);
                if ((trainerTag >> 3) == 3 && trainerWire == kVarint) {
                    modelType = trainer.varint();
                } else if ((trainerTag >> 3) == 40 && trainerWire == kVarint) {
                    unkId = trainer.varint();
                } else {
                    trainer.skip(trainerWire);
                }
            }
        } else {
            reader.skip(wireType);
        }
    }
    if (pieces.empty()) {
        reader.fail("holds no pieces");
    }
    if (modelType != kUnigram) {
        throw InputError(source,
                         "is a SentencePiece model of type " + std::to_string(modelType) +
                             " (2 is BPE); BERT Studio reads Unigram SentencePiece models (as "
                             "DeBERTa-v3 ships) from spm.model, and other tokenizers from "
                             "tokenizer.json");
    }
    if (unkId >= pieces.size()) {
        reader.fail("names piece " + std::to_string(unkId) + " as unknown, past its " +
                    std::to_string(pieces.size()) + " pieces");
    }
    nlohmann::json vocab = nlohmann::json::array();
    nlohmann::json added = nlohmann::json::array();
    for (std::size_t id = 0; id < pieces.size(); ++id) {
        const auto& piece = pieces[id];
        // What the model's own loader checks too: a piece is non-empty UTF-8 with a finite score.
        if (piece.text.empty() || !utf8::validity(piece.text).valid) {
            reader.fail("has piece " + std::to_string(id) +
                        (piece.text.empty() ? " empty" : " that is not valid UTF-8"));
        }
        if (!std::isfinite(piece.score)) {
            reader.fail("gives piece " + std::to_string(id) + " a score that is not a number");
        }
        vocab.push_back({piece.text, static_cast<double>(piece.score)});
        if (piece.type == kControl || piece.type == kUserDefined) {
            added.push_back({{"id", id},
                             {"content", piece.text},
                             {"single_word", false},
                             {"lstrip", false},
                             {"rstrip", false},
                             {"normalized", false},
                             {"special", piece.type == kControl}});
        }
    }
    return {{"version", "1.0"},
            {"truncation", nullptr},
            {"padding", nullptr},
            {"added_tokens", added},
            {"normalizer", nullptr},
            {"pre_tokenizer", nullptr},
            {"post_processor", nullptr},
            {"decoder", nullptr},
            {"model",
             {{"type", "Unigram"}, {"unk_id", unkId}, {"vocab", vocab}, {"byte_fallback", false}}}};
}

}  // namespace bert
