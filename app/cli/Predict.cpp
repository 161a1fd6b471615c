// `bert-studio-cli predict`: texts, standard input or a whole file under a run's model.
#include <algorithm>
#include <cstdio>
#include <istream>
#include <ostream>
#include <sstream>

#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <nlohmann/json.hpp>

#include "Commands.h"
#include "Error.h"
#include "PredictTasks.h"
#include "data/Dataset.h"
#include "data/TableReader.h"
#include "hf/ModelFolder.h"
#include "io/AtomicFile.h"
#include "runs/OutputPaths.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"
#include "runs/RunTask.h"
#include "task/Task.h"
#include "text/Utf8.h"

namespace bert::cli {

int predict(const PredictArguments& args, const std::filesystem::path& database, std::istream& in,
            std::ostream& out, std::ostream& err) {
    auto folder = args.modelFolder;
    std::size_t maxLength = args.maxLength;
    // What -o must never overwrite: the input, the model, and the run's data (run databases and
    // runs folders are refused on their own).
    ProtectedPaths reads;
    reads.files = {args.file, database};
    reads.folders = {args.modelFolder};
    TaskSettings runSettings;
    std::string runPairColumn;  ///< the run's second-text column: a model trained on pairs
    if (args.run > 0) {
        RunStore store(database, RunStore::Access::ReadOnly);
        const auto run = store.run(args.run);
        if (!run) {
            throw InputError(store.file(), "has no run " + std::to_string(args.run));
        }
        folder = requireModelCheckpoint(store, args.run);
        // Which evaluation's weights answer (a tie of the best metric goes to the lower loss).
        if (const auto served = servedCheckpointOfRun(store, args.run)) {
            err << "run " << args.run << "'s model: " << served->describe() << "\n";
        }
        runSettings = taskSettingsOfRun(*run, store.evaluations(args.run));
        const auto pairColumn =
            run->config.value("/job/data/text_pair_column"_json_pointer, nlohmann::json());
        runPairColumn = pairColumn.is_string() ? pairColumn.get<std::string>() : "";
        reads.folders = {folder, run->baseModel};
        reads.files.push_back(run->datasetPath);
        if (const auto validation =
                run->config.value("/job/data/validation_file"_json_pointer, nlohmann::json());
            validation.is_string()) {
            reads.files.push_back(validation.get<std::string>());
        }
        // What the run trained at: a longer length gives the model texts it never saw (a run at
        // 128 tokens scored 41/50 at 512 and 45/50 at 128).
        if (maxLength == 0) {
            const auto length =
                run->config.value("/job/training/max_length"_json_pointer, nlohmann::json());
            maxLength = length.is_number_unsigned() ? length.get<std::size_t>() : 0;
        }
    }
    if (!args.output.empty()) {
        checkOutputFile(args.output, "--output", reads);  // before the work, not after it
    }
    if (args.threads > 0) {
        at::set_num_threads(args.threads);
    }
    auto bundle = loadModelFolder(folder);
    if (bundle.report.freshClassifier) {
        err << "warning: " << folder.string()
            << " has no trained classifier head; these probabilities come from a random head.\n";
    }
    // Weights the file lacks start from random values; transformers lists them, and so do we.
    std::string missing;
    for (const auto& name : bundle.report.missingKeys) {
        if (name.rfind("classifier.", 0) != 0) {
            missing += (missing.empty() ? "" : ", ") + name;
        }
    }
    if (!missing.empty()) {
        err << "warning: these weights were not in " << bundle.report.weightsFile.string()
            << " and are random: " << missing << "\n";
    }
    // A weight that is not a number makes every probability NaN (issue 26: "-nan", exit 0).
    for (const auto& item : bundle.model->named_parameters()) {
        if (!at::isfinite(item.value()).all().item<bool>()) {
            throw InputError(bundle.report.weightsFile,
                             "tensor \"" + item.key() +
                                 "\" holds NaN or infinite values: this model cannot predict "
                                 "(did its training diverge?)");
        }
    }
    // A model folder's tokenizer says the length its model was trained at (an export of a run
    // at 32 tokens cut at 512 and answered otherwise than its run).
    if (maxLength == 0 && args.run == 0) {
        maxLength = modelMaxLengthOfFolder(folder).value_or(0);
    }
    const auto positions = static_cast<std::size_t>(bundle.config.maxSequenceLength());
    maxLength = maxLength == 0 ? positions : std::min(maxLength, positions);

    // What to classify: a file's column (with its labels, if named), or texts and standard input.
    std::vector<std::string> texts;
    std::vector<std::string> pairs;
    std::vector<std::string> expected;
    if (!args.file.empty()) {
        const auto table = readTable(args.file);
        for (const auto& note : readingNotes(0, 0, table.invalidUtf8Replaced, table.encoding,
                                             table.removedControls, false)) {
            err << "note: " << args.file.string() << ": " << note << "\n";
        }
        const auto textColumn = table.columnIndex(args.textColumn);
        if (!textColumn) {
            throw InputError(args.file, "has no text column \"" + args.textColumn + "\"");
        }
        std::optional<std::size_t> labelColumn;
        if (!args.labelColumn.empty() && !(labelColumn = table.columnIndex(args.labelColumn))) {
            throw InputError(args.file, "has no label column \"" + args.labelColumn + "\"");
        }
        // The second texts: the column named, else the run's own when the file has it.
        std::optional<std::size_t> pairColumn;
        if (!args.pairColumn.empty() && !(pairColumn = table.columnIndex(args.pairColumn))) {
            throw InputError(args.file, "has no pair column \"" + args.pairColumn + "\"");
        }
        if (!pairColumn && !runPairColumn.empty()) {
            pairColumn = table.columnIndex(runPairColumn);
        }
        for (const auto& row : table.rows) {
            texts.push_back(row[*textColumn]);
            if (pairColumn) {
                pairs.push_back(row[*pairColumn]);
            }
            if (labelColumn) {
                expected.push_back(row[*labelColumn]);
            }
        }
    }
    for (const auto& text : args.texts) {
        if (text == "-") {
            for (std::string line; std::getline(in, line);) {
                if (!line.empty() && line.back() == '\r') {
                    line.pop_back();  // CRLF: the \r is no part of the text
                }
                texts.push_back(line);
            }
        } else {
            texts.push_back(text);
        }
    }
    if (texts.empty()) {
        throw InputError("nothing to classify: give texts, - for standard input, or --file");
    }
    if (!args.pairs.empty()) {
        if (!args.file.empty() || args.pairs.size() != texts.size()) {
            throw InputError("--pair gives one second text for each text given: " +
                             std::to_string(args.pairs.size()) + " --pair for " +
                             std::to_string(texts.size()) +
                             (args.file.empty() ? " texts" : " rows (a file's: --pair-column)"));
        }
        pairs = args.pairs;
    }
    if (pairs.empty() && !runPairColumn.empty()) {
        err << "warning: run " << args.run << " was trained on pairs (second text \""
            << runPairColumn << "\"); each text is read alone: give --pair (or --pair-column)\n";
    }
    // Bytes that are not UTF-8 are replaced, and said (--json stopped at them with exit 1 and
    // the JSON library's own message).
    std::size_t replaced = 0;
    for (auto* list : {&texts, &pairs}) {
        for (auto& text : *list) {
            std::size_t count = 0;
            text = utf8::sanitize(text, &count);
            replaced += count;
        }
    }
    if (replaced > 0) {
        err << "note: invalid UTF-8 sequences replaced in the texts: " << replaced << "\n";
    }

    // The task's own reading of the model's outputs (issue 29): a run's threshold and scaling,
    // or what an exported folder's config.json says.
    const auto settings =
        args.run > 0 ? runSettings : taskSettingsOfConfig(bundle.config, folder / "config.json");
    if (const auto said = taskOf(settings.kind).describeSettings(settings); !said.empty()) {
        // "- Decision threshold: 0.4000 (...)": which threshold decides, whose it is.
        err << "task settings (" << (args.run > 0 ? "the run's" : "the model folder's")
            << "): " << said.substr(2);
    }
    TaskInputs inputs;
    inputs.texts = std::move(texts);
    inputs.pairs = std::move(pairs);
    inputs.expected = std::move(expected);
    inputs.file = args.file;
    inputs.output = args.output;
    inputs.reads = reads;
    inputs.maxLength = maxLength;
    inputs.batchSize = std::max<std::size_t>(1, args.batchSize);
    inputs.json = args.json;
    return predictTask(settings, bundle, inputs, out);
}

}  // namespace bert::cli
