// Token classification data: tagged sentences (a CoNLL file, JSON lines of tokens and tags, or
// entity spans over Chinese text: data/TaggedReader.h), their tags checked
// (task/token/TagScheme.h), each word tokenized on its own as transformers' is_split_into_words
// does, and the first sub-word of each word labelled (tokenizer/WordEncoding.h).
#include <map>

#include "Error.h"
#include "data/TaggedReader.h"
#include "task/TaskKinds.h"
#include "text/Utf8.h"
#include "tokenizer/WordEncoding.h"

namespace bert {

namespace {

TargetedExamples<TaggedSentence> readSentences(const std::filesystem::path& file) {
    auto tagged = readTaggedFile(file);
    TargetedExamples<TaggedSentence> out;
    out.examples.file = file;
    out.examples.fingerprint = datasetFingerprint(file, {});
    for (auto& sentence : tagged.sentences) {
        Example example;
        for (const auto& word : sentence.words) {
            example.text += (example.text.empty() ? "" : " ") + word;
        }
        example.line = sentence.line;
        out.examples.examples.push_back(std::move(example));
        out.targets.push_back(std::move(sentence));
    }
    if (out.targets.empty()) {
        throw InputError(file, "has no tagged sentences");
    }
    return out;
}

std::vector<TaggedSentence> sentencesOf(const TargetedExamples<TaggedSentence>& part) {
    return part.targets;
}

/// Encodes part's sentences and aligns their tags; adds the words cut to wordsCut.
TokenizedSet encodeTagged(const TargetedExamples<TaggedSentence>& part,
                          const std::map<std::string, std::int64_t>& ids,
                          const Tokenizer& tokenizer, std::size_t maxLength,
                          std::size_t& wordsCut) {
    TokenizedSet out;
    for (const auto& sentence : part.targets) {
        std::vector<std::int64_t> wordLabels;
        for (std::size_t w = 0; w < sentence.tags.size(); ++w) {
            const auto it = ids.find(sentence.tags[w]);
            if (it == ids.end()) {
                throw InputError(part.examples.file, "line " + std::to_string(sentence.lineOf(w)) +
                                                         ": tag \"" + sentence.tags[w] +
                                                         "\" is not one of the training data's");
            }
            wordLabels.push_back(it->second);
        }
        auto encoded = tokenizer.encodeWords(sentence.words, maxLength);
        wordsCut += encoded.wordsCut;
        out.tokenLabels.push_back(alignLabels(encoded.wordIds, wordLabels));
        out.lengths.push_back(encoded.encoding.size());
        out.encodings.push_back(std::move(encoded.encoding));
    }
    return out;
}

/// Where each sentence of part comes from, with its words, which its entities are quoted from.
std::vector<ExampleSource> taggedSources(const TargetedExamples<TaggedSentence>& part) {
    std::vector<ExampleSource> sources;
    for (const auto& sentence : part.targets) {
        ExampleSource source;
        source.line = sentence.line;
        // Span JSON keeps the original text; the other layouts are words.
        std::string text = sentence.text;
        if (text.empty()) {
            for (const auto& word : sentence.words) {
                text += (text.empty() ? "" : " ") + word;
            }
        }
        source.text = utf8::prefix(text, kExampleTextBytes);
        source.words = sentence.words;
        sources.push_back(std::move(source));
    }
    return sources;
}

}  // namespace

TrainingData prepareTokenData(const DataRequest& request) {
    const auto& spec = request.spec;
    auto [train, validation] = splitTargeted<TaggedSentence>(request, readSentences);
    const auto summary = checkTags(sentencesOf(train), spec.trainFile);
    checkTags(sentencesOf(validation), spec.validationFile.value_or(spec.trainFile));
    TrainingData data;
    data.task = TaskKind::TokenClassification;
    data.tagScheme = summary.scheme;
    data.labels.names = summary.labels;
    std::map<std::string, std::int64_t> ids;
    for (std::size_t i = 0; i < summary.labels.size(); ++i) {
        ids[summary.labels[i]] = static_cast<std::int64_t>(i);
    }
    data.train = encodeTagged(train, ids, request.tokenizer, request.maxLength, data.wordsCut);
    data.validation =
        encodeTagged(validation, ids, request.tokenizer, request.maxLength, data.wordsCut);
    data.validation.sources = taggedSources(validation);
    data.fingerprint = train.examples.fingerprint;
    // Span JSON keeps each word's place in its text: its words are characters.
    if (!train.targets.empty() && !train.targets.front().wordSpans.empty()) {
        data.wordSplit = WordSplit::Characters;
    }
    return data;
}

}  // namespace bert
