#include "runs/MetricsCsv.h"

#include <map>
#include <sstream>

#include "io/AtomicFile.h"
#include "runs/RunStore.h"

namespace bert {

void writeMetricsCsv(RunStore& store, std::int64_t runId, const std::filesystem::path& file) {
    std::map<std::size_t, EvalMetrics> evaluations;
    for (const auto& evaluation : store.evaluations(runId)) {
        evaluations[evaluation.step] = evaluation;
    }
    std::ostringstream csv;
    csv << "step,epoch,loss,learning_rate,memory_current_bytes,memory_peak_bytes,memory_reserved_"
           "bytes,"
           "samples_per_second,tokens_per_second,padding_share,loss_scale,micro_batch,accumulation,"
           "skipped,"
           "validation_loss,validation_accuracy,validation_macro_f1\n";
    for (const auto& m : store.steps(runId)) {
        csv << m.step << ',' << m.epoch << ',' << m.loss << ',' << m.learningRate << ','
            << m.memory.current << ',' << m.memory.peak << ',' << m.memory.reserved << ','
            << m.samplesPerSecond << ',' << m.tokensPerSecond << ',' << m.paddingShare << ','
            << m.lossScale << ',' << m.microBatch << ',' << m.accumulation << ','
            << (m.skipped ? 1 : 0);
        if (const auto it = evaluations.find(m.step); it != evaluations.end()) {
            csv << ',' << it->second.loss << ',' << it->second.accuracy << ','
                << it->second.macroF1;
        } else {
            csv << ",,,";
        }
        csv << '\n';
    }
    writeFileAtomically(file, csv.str());
}

}  // namespace bert
