// bert-studio-cli: the headless face of the engine.
#include <algorithm>
#include <atomic>
#include <csignal>
#include <fstream>
#include <iostream>
#include <signal.h>
#include <string_view>

#include <CLI/CLI.hpp>

#include "Commands.h"
#include "DefaultModel.h"
#include "Error.h"
#include "distributed/Collective.h"
#include "hf/ModelCache.h"
#include "memory/MemoryMonitor.h"
#include "runs/RunExport.h"
#include "runs/RunStore.h"
#include "train/TrainingOptions.h"

namespace {

std::atomic<bool> cancelRequested{false};

// Ctrl-C (SIGINT), SIGTERM (docker stop, systemd, Slurm, timeout) and SIGHUP (a closed
// terminal) stop a run alike: at the next micro-batch, with a checkpoint, the run recorded as
// cancelled, exit code 130. A second signal of the same kind ends the process at once.
extern "C" void onStopSignal(int number) {
    cancelRequested.store(true);
    std::signal(number, SIG_DFL);
}

void stopRunsOnSignals() {
    for (const int number : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction action {};
        action.sa_handler = onStopSignal;
        sigemptyset(&action.sa_mask);
        ::sigaction(number, &action, nullptr);
    }
}

// What the help shows as an option's value: its kind, or its choices.
std::string typeName(const bert::OptionDescriptor& option) {
    switch (option.kind) {
        case bert::OptionKind::Flag:
            return "";
        case bert::OptionKind::Count:
            return "UINT";
        case bert::OptionKind::Integer:
            return "INT";
        case bert::OptionKind::Real:
            return "NUMBER";
        case bert::OptionKind::Seed:
            return "UINT64";
        case bert::OptionKind::Device:
            return "cpu|cuda:N";
        case bert::OptionKind::ByteSize:
            return "SIZE|none";
        case bert::OptionKind::Choice:
            break;
    }
    std::string names;
    for (const auto& choice : option.choices) {
        names += (names.empty() ? "" : "|") + std::string(choice.name);
    }
    return names;
}

const char* helpSection(bert::OptionGroup group) {
    switch (group) {
        case bert::OptionGroup::Data:
            return "Data";
        case bert::OptionGroup::Batching:
            return "Batching";
        case bert::OptionGroup::Memory:
            return "Memory techniques";
        case bert::OptionGroup::Optimisation:
            return "Optimisation";
        case bert::OptionGroup::Run:
            return "Device and outputs";
    }
    return "Options";
}

// Adds the job's flags and one flag per training option (train/TrainingOptions.h) to `command`.
// Each flag's callback writes the parsed value into args, after any --config file was loaded, so
// flags given on the command line override the file.
void addTrainingFlags(CLI::App& command, bert::cli::TrainArguments& args) {
    // A flag given twice takes its last value, as users of shells expect when they append one.
    command.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
    command.add_option("--config", args.configFile,
                       "Read the job (or training settings) from this JSON file");
    command.add_option("--model,-m", args.job.modelFolder,
                       "Base model: a folder, or a model id of the local Hugging Face cache "
                       "(default: the bundled MiniLM)");
    command
        .add_option("--preset", args.job.preset,
                    "Train from scratch at this size with the model's tokenizer")
        ->check(CLI::IsMember({"tiny", "mini", "small", "base"}));
    command.add_option("--train", args.job.data.trainFile, "Training data (.csv, .tsv, .jsonl)");
    command.add_option_function<std::string>(
        "--validation", [&args](const std::string& file) { args.job.data.validationFile = file; },
        "Validation data (default: a stratified split)");
    command.add_option("--text-column", args.job.data.columns.text, "Column holding the text")
        ->capture_default_str();
    command.add_option("--pair-column", args.job.data.columns.textPair,
                       "Column holding a second text (pairs)");
    command.add_option("--label-column", args.job.data.columns.label, "Column holding the label")
        ->capture_default_str();
    command
        .add_option("--task", args.task,
                    "What to learn: single-label, multi-label, regression or token-classification "
                    "(default: guessed from the data, and said before training)")
        ->check(
            CLI::IsMember({"single-label", "multi-label", "regression", "token-classification"}));
    command.add_option("--label-separator", args.job.data.task.labelSeparator,
                       "Multi-label: what separates the labels in the label column (default: "
                       "guessed, ; or |)");
    command
        .add_option("--label-columns", args.job.data.task.labelColumns,
                    "Multi-label: one 0/1 column per label instead of a label column")
        ->delimiter(',');
    command
        .add_option_function<double>(
            "--threshold", [&args](double value) { args.job.data.task.threshold = value; },
            "Multi-label: the probability from which a label is predicted (default: tuned on "
            "validation)")
        ->check(CLI::Range(0.0, 1.0).description("between 0 and 1"));
    command.add_flag("--standardize-targets,!--no-standardize-targets",
                     args.job.data.task.standardizeTargets,
                     "Regression: train on standardised targets, undone at prediction (the "
                     "default; --no-standardize-targets or --standardize-targets=false trains on "
                     "the raw numbers)");
    command.add_option("--name", args.job.name, "Run name");
    const bert::TrainingConfig defaults;
    for (const auto& option : bert::trainingOptions()) {
        const std::string names =
            std::string(option.flag) + (*option.alias ? std::string(",") + option.alias : "");
        if (option.kind == bert::OptionKind::Flag) {
            const bool value = !option.negatedFlag();
            const std::string help =
                value ? option.help : std::string("Turn this off: ") + option.help;
            command
                .add_flag_callback(
                    names, [&args, &option, value] { option.set(args.job.training, value); }, help)
                ->group(helpSection(option.group));
            continue;
        }
        command
            .add_option_function<std::string>(
                names,
                [&args, &option](const std::string& text) {
                    option.setFromText(args.job.training, text);
                    args.precisionGiven |= std::string_view(option.key) == "precision";
                },
                option.help)
            ->type_name(typeName(option))
            ->default_str(option.text(defaults))
            ->group(helpSection(option.group));
    }
}

}  // namespace

int main(int argc, char** argv) {
    CLI::App app{
        "BERT Studio command line: fine-tune BERT classifiers without running out of memory"};
    app.require_subcommand(1);
    // Global options (--db) are taken after a subcommand too (`runs list --db FILE`): what a
    // subcommand does not know falls through to its parent. Subcommands made below inherit it.
    app.fallthrough();
    const auto defaultModel = bert::defaultModelFolder().string();
    std::string database = bert::RunStore::defaultLocation().string();
    app.add_option("--db,--database", database, "Run database")->capture_default_str();

    std::string inspectFolder = defaultModel;
    bool inspectJson = false;
    auto* inspect = app.add_subcommand("inspect", "Show a model folder's configuration and size");
    inspect
        ->add_option("model", inspectFolder,
                     "Model folder (config.json, tokenizer, weights), or a model id of the "
                     "local Hugging Face cache")
        ->capture_default_str();
    inspect->add_flag("--json", inspectJson, "Print JSON");

    bert::cli::PredictArguments predictArgs;
    predictArgs.modelFolder = defaultModel;
    auto* predict =
        app.add_subcommand("predict", "Label probabilities of texts, standard input or a file");
    predict
        ->add_option("--model,-m", predictArgs.modelFolder,
                     "Model folder, or a model id of the local Hugging Face cache")
        ->capture_default_str();
    predict->add_option("--run", predictArgs.run, "Use the best model of this stored run");
    predict->add_option("texts", predictArgs.texts,
                        "Texts to classify (- reads standard input, a text per line)");
    predict->add_option("--file", predictArgs.file, "Score a CSV, TSV or JSONL file instead");
    predict->add_option("--text-column", predictArgs.textColumn, "The file's text column")
        ->capture_default_str();
    predict->add_option("--pair-column", predictArgs.pairColumn,
                        "The file's second-text column, for a model trained on pairs (default: "
                        "the run's, when the file has it)");
    predict
        ->add_option("--pair", predictArgs.pairs,
                     "A second text for each text given (a model trained on pairs), in order; "
                     "repeat it, one per text")
        ->expected(1)
        ->allow_extra_args(false)  // one text each: the texts after it are texts
        ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
    predict->add_option("--label-column", predictArgs.labelColumn,
                        "The file's label column: print the accuracy");
    predict->add_option("--output,-o", predictArgs.output, "Write the file's predictions as CSV");
    predict
        ->add_option(
            "--max-length", predictArgs.maxLength,
            "Truncate texts to this many tokens (default: the run's own, else the model's limit)")
        ->check(CLI::Range(0, 65536));
    predict->add_option("--batch-size", predictArgs.batchSize, "Texts per forward pass")
        ->capture_default_str()
        ->check(CLI::Range(1, 65536));
    predict->add_option("--threads", predictArgs.threads, "CPU threads (0: LibTorch's default)")
        ->check(CLI::Range(0, 4096));
    predict->add_flag("--json", predictArgs.json, "Print one JSON object per text");

    bert::cli::TrainArguments trainArgs;
    trainArgs.job.modelFolder = defaultModel;
    auto* train = app.add_subcommand(
        "train", "Fine-tune a classifier; every metric goes to the run database");
    addTrainingFlags(*train, trainArgs);
    train->add_option("--report", trainArgs.reportFile,
                      "Also write per-step timings and process memory to this JSON file");
    train
        ->add_option("--events-fd", trainArgs.eventsFd,
                     "Also write the run's events as JSON lines to this open file descriptor "
                     "(for programs that start training: core/train/EventStream.h)")
        ->check(CLI::Range(0, 1 << 20));

    bert::cli::TrainArguments estimateArgs;
    estimateArgs.job.modelFolder = defaultModel;
    bool estimateTrial = false;
    auto* estimate = app.add_subcommand("estimate", "Forecast training memory before training");
    addTrainingFlags(*estimate, estimateArgs);
    estimate->add_flag("--trial", estimateTrial,
                       "Check the forecast with one trial step on the longest batch");
    bool estimateLargest = false;
    estimate->add_flag("--largest-batch", estimateLargest,
                       "Find the largest micro-batch that fits (forecast, then trial steps), "
                       "keeping the effective batch");

    bert::cli::CleanArguments cleanArgs;
    cleanArgs.train.job.modelFolder = defaultModel;
    auto* clean = app.add_subcommand(
        "clean",
        "Find likely label errors of a training file: trained on k folds, each example "
        "predicted by a model that did not see it, ranked by confident learning");
    addTrainingFlags(*clean, cleanArgs.train);
    clean->add_option("--folds", cleanArgs.folds, "Folds (models trained)")
        ->capture_default_str()
        ->check(CLI::Range(2, 50));
    clean->add_option("--show", cleanArgs.show, "Examples printed (0: all)")->capture_default_str();
    clean->add_option("--output,-o", cleanArgs.output, "Write the ranked list as CSV");
    clean->add_option("--cleaned", cleanArgs.cleaned,
                      "Write a copy of the training file without the examples found (a new "
                      "file: yours is never changed)");
    clean->add_flag("--relabel", cleanArgs.relabel,
                    "In --cleaned, give the examples found their likely label instead");

    bert::cli::ResumeArguments resumeArgs;
    auto* resume = app.add_subcommand(
        "resume", "Continue an interrupted or cancelled run from its last checkpoint");
    resume->add_option("run", resumeArgs.run, "Run id")->required();
    resume->add_flag("--from-checkpoint", resumeArgs.fromCheckpoint,
                     "Take the model, configuration and tokenizer from the run's own checkpoint "
                     "(when its base model folder changed or is gone)");
    int resumeProcesses = 1;
    resume
        ->add_option("--nproc", resumeProcesses,
                     "A data-parallel run resumes on as many local workers as it trained on")
        ->check(CLI::Range(1, 256));
    resume
        ->add_option("--events-fd", resumeArgs.eventsFd,
                     "Also write the run's events as JSON lines to this open file descriptor")
        ->check(CLI::Range(0, 1 << 20));

    std::int64_t exportRunId = 0;
    std::string exportTarget;
    bool exportLast = false;
    auto* exporter = app.add_subcommand(
        "export", "Write a run's model as a transformers folder, or as ONNX, with a run card");
    exporter->add_option("run", exportRunId, "Run id")->required();
    exporter->add_option("folder", exportTarget, "Target folder")->required();
    exporter->add_flag("--last", exportLast, "Export the last checkpoint instead of the best");
    std::string exportFormat = "transformers";
    exporter
        ->add_option("--format", exportFormat,
                     "transformers (model.safetensors) or onnx (model.onnx for ONNX Runtime); "
                     "both with the tokenizer files and config.json's label map")
        ->check(CLI::IsMember({"transformers", "onnx"}))
        ->capture_default_str();
    bool exportForce = false;
    exporter->add_flag(
        "--force", exportForce,
        "Replace a folder an earlier export wrote (never other files, a runs folder, the run's "
        "data or its base model)");

    auto* runs = app.add_subcommand(
        "runs", "List, show, compare, rename or delete stored runs, or read their examples");
    runs->require_subcommand(1);
    bool listJson = false;
    auto* runsList = runs->add_subcommand("list", "All runs");
    runsList->add_flag("--json", listJson, "Print JSON");
    std::int64_t showRun = 0;
    auto* runsShow = runs->add_subcommand("show", "One run: configuration, metrics, events");
    runsShow->add_option("run", showRun, "Run id")->required();
    std::vector<std::int64_t> compareRuns;
    auto* runsCompare =
        runs->add_subcommand("compare", "Configuration differences and results of runs");
    runsCompare->add_option("runs", compareRuns, "Run ids")->required()->expected(2, 64);
    std::int64_t deleteRun = 0;
    bool deleteYes = false;
    auto* runsDelete = runs->add_subcommand("delete", "Delete a run and its checkpoints");
    runsDelete->add_option("run", deleteRun, "Run id")->required();
    runsDelete->add_flag("--yes,-y", deleteYes, "Do not ask");
    bool deleteForce = false;
    runsDelete->add_flag("--force", deleteForce,
                         "Delete a run that is marked as training (its lease not yet expired) "
                         "when you know its process is gone");
    bert::cli::ExamplesArguments examplesArgs;
    auto* runsExamples = runs->add_subcommand(
        "examples", "The validation examples of a run's best evaluation, highest loss first");
    runsExamples->add_option("run", examplesArgs.run, "Run id")->required();
    runsExamples->add_option("--worst", examplesArgs.worst,
                             "Only the N examples with the highest loss (default: all kept)");
    runsExamples->add_flag("--wrong", examplesArgs.wrongOnly,
                           "Only the examples predicted wrong (every task but regression)");
    runsExamples->add_option("--csv", examplesArgs.csv, "Write them to this CSV file");
    runsExamples->add_flag("--json", examplesArgs.json, "Print JSON");
    std::int64_t renameRun = 0;
    std::string newName;
    auto* runsRename = runs->add_subcommand("rename", "Rename a run");
    runsRename->add_option("run", renameRun, "Run id")->required();
    runsRename->add_option("name", newName, "New name")->required();

    // Every failure ends here in a message and its exit code (core/Error.h, README "Exit codes").
    try {
        // --config is read before the flags are parsed, so flags given explicitly override it.
        for (int i = 1; i + 1 < argc; ++i) {
            if (std::string(argv[i]) == "--config") {
                for (int j = 1; j < i; ++j) {
                    const std::string word = argv[j];
                    if (word == "train" || word == "estimate" || word == "clean") {
                        bert::cli::loadConfigFile(argv[i + 1], word == "train"   ? trainArgs
                                                               : word == "clean" ? cleanArgs.train
                                                                                 : estimateArgs);
                    }
                }
            }
        }
        // A text is a text whatever it looks like: CLI11 reads an argument "[a, b]" given to a
        // list as its values ("[Offer, free money]" was classified as "Offer" and "free money",
        // "[x]" as "x"). After `predict`, such an argument is marked so that CLI11 sees no
        // brackets, and the mark removed once it is parsed.
        constexpr char kKept = '\x1E';
        std::vector<std::string> words(argv, argv + argc);
        const auto predictAt = std::find(words.begin() + 1, words.end(), std::string("predict"));
        for (auto it = predictAt; it != words.end(); ++it) {
            if (it != predictAt && it->size() >= 2 && it->front() == '[' && it->back() == ']') {
                it->insert(it->begin(), kKept);
            }
        }
        std::vector<char*> marked;
        for (auto& word : words) {
            marked.push_back(word.data());
        }
        try {
            app.parse(static_cast<int>(marked.size()), marked.data());
            auto unmark = [&](std::string& text) {
                if (!text.empty() && text.front() == kKept) {
                    text.erase(0, 1);
                }
            };
            for (auto& text : predictArgs.texts) {
                unmark(text);
            }
            for (auto& text : predictArgs.pairs) {
                unmark(text);
            }
            unmark(predictArgs.textColumn);
            unmark(predictArgs.pairColumn);
            unmark(predictArgs.labelColumn);
            for (auto* path : {&predictArgs.modelFolder, &predictArgs.file, &predictArgs.output}) {
                auto text = path->string();
                unmark(text);
                *path = text;
            }
        } catch (const CLI::ParseError& error) {
            // --help and --version end here with 0; usage errors with the bad-input code.
            return app.exit(error) == 0 ? bert::exit_code::kDone : bert::exit_code::kBadInput;
        }
        // A model given as an id of the Hugging Face cache is its snapshot folder from here on
        // (the run stores that folder, so a resume finds the same files).
        for (auto* folder : {&trainArgs.job.modelFolder, &estimateArgs.job.modelFolder,
                             &predictArgs.modelFolder}) {
            *folder = bert::resolveModelFolder(folder->string());
        }
        inspectFolder = bert::resolveModelFolder(inspectFolder).string();
        // Only the commands that train watch for a stop; the others end on the signal itself.
        if (train->parsed() || resume->parsed() || clean->parsed()) {
            stopRunsOnSignals();
        }
        // A reader of --events-fd that goes away must not kill a run (EventStream.h).
        std::signal(SIGPIPE, SIG_IGN);
        using Access = bert::RunStore::Access;
        if (inspect->parsed()) {
            bert::cli::inspect(inspectFolder, inspectJson, std::cout);
        } else if (predict->parsed()) {
            return bert::cli::predict(predictArgs, database, std::cin, std::cout, std::cerr);
        } else if (train->parsed()) {
            if (bert::WorldInfo::fromEnvironment().distributed()) {
                return bert::cli::trainAsRank(trainArgs, database, cancelRequested, std::cout,
                                              std::cerr);
            }
            if (trainArgs.job.training.processes > 1) {
                if (trainArgs.job.training.device.rfind("cuda", 0) == 0) {
                    bert::refuseMoreRanksThanGpus(trainArgs.job.training.processes,
                                                  bert::cudaDeviceCount());
                }
                return bert::cli::launchWorkers(trainArgs.job.training.processes, argc, argv,
                                                cancelRequested, std::cerr);
            }
            return bert::cli::train(trainArgs, database, cancelRequested, std::cout, std::cerr);
        } else if (clean->parsed()) {
            return bert::cli::clean(cleanArgs, cancelRequested, std::cout, std::cerr);
        } else if (estimate->parsed()) {
            bert::cli::estimate(estimateArgs, estimateTrial, estimateLargest, std::cout);
        } else if (resume->parsed()) {
            if (bert::WorldInfo::fromEnvironment().distributed()) {
                return bert::cli::resumeAsRank(resumeArgs, database, cancelRequested, std::cout,
                                               std::cerr);
            }
            if (resumeProcesses > 1) {
                return bert::cli::launchWorkers(resumeProcesses, argc, argv, cancelRequested,
                                                std::cerr);
            }
            return bert::cli::resume(resumeArgs, database, cancelRequested, std::cout, std::cerr);
        } else if (exporter->parsed()) {
            bert::RunStore store(database, Access::ReadOnly);
            const auto folder =
                bert::exportRun(store, exportRunId, exportTarget, !exportLast, exportForce,
                                *bert::parseExportFormat(exportFormat));
            std::cout << "exported run " << exportRunId << " to " << folder.string() << "\n";
        } else if (runsList->parsed()) {
            bert::cli::listRuns(database, listJson, std::cout);
        } else if (runsShow->parsed()) {
            bert::cli::showRun(database, showRun, std::cout);
        } else if (runsExamples->parsed()) {
            bert::cli::showExamples(database, examplesArgs, std::cout);
        } else if (runsCompare->parsed()) {
            bert::cli::compareRuns(database, compareRuns, std::cout);
        } else if (runsDelete->parsed()) {
            if (!deleteYes) {
                std::cerr << "delete run " << deleteRun << " and its checkpoints? [y/N] ";
                std::string answer;
                std::getline(std::cin, answer);
                if (answer != "y" && answer != "Y" && answer != "yes") {
                    std::cerr << "kept\n";
                    return bert::exit_code::kDone;
                }
            }
            bert::RunStore store(database);
            store.remove(deleteRun, deleteForce);
            std::cout << "deleted run " << deleteRun << "\n";
        } else if (runsRename->parsed()) {
            bert::RunStore store(database);
            store.rename(renameRun, newName);
        }
    } catch (const bert::InputError& error) {
        std::cerr << "error: " << error.what() << '\n';
        return bert::exit_code::kBadInput;
    } catch (const bert::StoreError& error) {
        std::cerr << "error: " << error.what() << '\n';
        return bert::exit_code::kStoreFailed;
    } catch (const bert::EngineError& error) {
        std::cerr << "error: " << error.what() << '\n';
        return bert::exit_code::kRunFailed;
    } catch (const std::exception& error) {
        std::cerr << "internal error: " << error.what() << '\n';
        return bert::exit_code::kInternal;
    } catch (...) {
        std::cerr << "internal error: an unknown exception\n";
        return bert::exit_code::kInternal;
    }
    return bert::exit_code::kDone;
}
