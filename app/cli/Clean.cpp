// `clean`: likely label errors of a training file (runs/LabelCleaning.h): the job trained on k
// folds, the held-out examples ranked by confident learning; the list printed, and written as CSV
// or as a corrected copy of the file on request.
#include <cstdio>
#include <ostream>

#include "Commands.h"
#include "Error.h"
#include "runs/LabelCleaning.h"

namespace bert::cli {

int clean(const CleanArguments& args, const std::atomic<bool>& cancel, std::ostream& out,
          std::ostream& err) {
    std::string note;
    const auto job = args.train.resolve(&note);
    if (!note.empty()) {
        err << note << "\n";
    }
    if (!args.cleaned.empty()) {
        std::error_code error;
        if (std::filesystem::equivalent(args.cleaned, job.data.trainFile, error)) {
            throw InputError(args.cleaned,
                             "is the training file itself; the cleaned copy goes "
                             "to a new file beside it, never over your data");
        }
    }
    err << "training " << args.folds << " folds of " << job.data.trainFile.string()
        << ", each predicting the examples it did not see\n";
    const auto report = findLabelErrors(job, args.folds, cancel,
                                        [&](const std::string& line) { err << line << "\n"; });
    if (report.cancelled) {
        err << "stopped: no list (every fold must be trained first)\n";
        return exit_code::kCancelled;
    }
    char summary[200];
    std::snprintf(summary, sizeof summary,
                  "%zu of %zu examples (%.1f%%) have a label that is likely wrong "
                  "(confident learning, %zu folds)",
                  report.rows.size(), report.examples,
                  100.0 * static_cast<double>(report.rows.size()) /
                      static_cast<double>(std::max<std::size_t>(1, report.examples)),
                  report.folds);
    out << summary << (report.rows.empty() ? "" : ", least likely first:") << "\n";
    const std::size_t shown =
        args.show == 0 ? report.rows.size() : std::min(args.show, report.rows.size());
    for (std::size_t r = 0; r < shown; ++r) {
        const auto& row = report.rows[r];
        char head[96];
        std::snprintf(head, sizeof head, "%5zu  line %-7zu p(given) %.4f  ", r + 1, row.line,
                      row.quality);
        out << head << oneLineCell(row.given, 20) << " -> " << oneLineCell(row.likely, 20) << "  "
            << oneLineCell(row.text, 70) << "\n";
    }
    if (shown < report.rows.size()) {
        out << "      … and " << report.rows.size() - shown << " more (--show 0, or --output)\n";
    }
    if (!args.output.empty()) {
        writeLabelErrorsCsv(report, args.output);
        out << "wrote the list to " << args.output.string() << "\n";
    }
    if (!args.cleaned.empty()) {
        writeCleanedFile(job, report, args.cleaned, args.relabel);
        out << "wrote " << args.cleaned.string() << ": the training file with the "
            << report.rows.size() << " examples " << (args.relabel ? "relabelled" : "left out")
            << " (your file is unchanged)\n";
    }
    return exit_code::kDone;
}

}  // namespace bert::cli
