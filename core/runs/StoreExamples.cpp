// The per-example results a run keeps (task/ExampleResults.h): the examples and example_sets
// tables of schema 8, one set per run, replaced as a whole when a better evaluation comes.
#include <cmath>

#include "io/Json.h"
#include "runs/RunStore.h"
#include "runs/StoreSql.h"

namespace bert {

namespace store {

void writeExamples(SQLite::Database& db, std::int64_t runId, const EvaluationExamples& examples) {
    SQLite::Statement clearRows(db, "DELETE FROM examples WHERE run_id = ?");
    clearRows.bind(1, runId);
    clearRows.exec();
    SQLite::Statement set(db,
                          "INSERT OR REPLACE INTO example_sets (run_id, step, evaluated) "
                          "VALUES (?, ?, ?)");
    set.bind(1, runId);
    set.bind(2, static_cast<std::int64_t>(examples.step));
    set.bind(3, static_cast<std::int64_t>(examples.evaluated));
    set.exec();
    SQLite::Statement insert(
        db,
        "INSERT INTO examples (run_id, position, example, line, text, pair, truth, predicted, "
        "truth_class, predicted_class, truth_probability, loss, correct, missed_json, "
        "added_json, residual) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
    std::int64_t position = 0;
    for (const auto& row : examples.rows) {
        insert.reset();
        insert.clearBindings();  // the optional columns stay NULL where a row has none
        insert.bind(1, runId);
        insert.bind(2, position++);
        insert.bind(3, static_cast<std::int64_t>(row.example));
        insert.bind(4, static_cast<std::int64_t>(row.line));
        insert.bind(5, row.text);
        insert.bind(6, row.pair);
        insert.bind(7, row.truth);
        insert.bind(8, row.predicted);
        if (row.truthClass >= 0) {
            insert.bind(9, row.truthClass);
            insert.bind(10, row.predictedClass);
        }
        if (row.truthProbability) {
            insert.bind(11, *row.truthProbability);
        }
        if (std::isfinite(row.loss)) {
            insert.bind(12, row.loss);
        }
        if (row.correct) {
            insert.bind(13, *row.correct ? 1 : 0);
        }
        if (!row.missed.empty() || !row.added.empty()) {
            insert.bind(14, nlohmann::json(row.missed).dump());
            insert.bind(15, nlohmann::json(row.added).dump());
        }
        if (row.residual) {
            insert.bind(16, *row.residual);
        }
        insert.exec();
    }
}

std::optional<EvaluationExamples> readExamples(SQLite::Database& db, std::int64_t runId) {
    if (!db.tableExists("example_sets")) {
        return std::nullopt;  // a read-only open of a store from before schema 8
    }
    SQLite::Statement set(db, "SELECT step, evaluated FROM example_sets WHERE run_id = ?");
    set.bind(1, runId);
    if (!set.executeStep()) {
        return std::nullopt;
    }
    EvaluationExamples examples;
    examples.step = static_cast<std::size_t>(set.getColumn(0).getInt64());
    examples.evaluated = static_cast<std::size_t>(set.getColumn(1).getInt64());
    SQLite::Statement query(
        db,
        "SELECT example, line, text, pair, truth, predicted, truth_class, predicted_class, "
        "truth_probability, loss, correct, missed_json, added_json, residual FROM examples "
        "WHERE run_id = ? ORDER BY position");
    query.bind(1, runId);
    auto strings = [](const SQLite::Column& column) {
        std::vector<std::string> items;
        if (column.isNull()) {
            return items;
        }
        std::string problem;
        const auto json = parseJson(column.getString(), problem);
        if (!problem.empty() || !json.is_array()) {
            return items;
        }
        for (const auto& item : json) {
            if (item.is_string()) {
                items.push_back(item.get<std::string>());
            }
        }
        return items;
    };
    while (query.executeStep()) {
        ExampleResult row;
        row.example = static_cast<std::size_t>(query.getColumn(0).getInt64());
        row.line = static_cast<std::size_t>(query.getColumn(1).getInt64());
        row.text = query.getColumn(2).getString();
        row.pair = query.getColumn(3).getString();
        row.truth = query.getColumn(4).getString();
        row.predicted = query.getColumn(5).getString();
        if (!query.getColumn(6).isNull()) {
            row.truthClass = query.getColumn(6).getInt();
            row.predictedClass = query.getColumn(7).getInt();
        }
        if (!query.getColumn(8).isNull()) {
            row.truthProbability = query.getColumn(8).getDouble();
        }
        row.loss = query.getColumn(9).isNull() ? NAN : query.getColumn(9).getDouble();
        if (!query.getColumn(10).isNull()) {
            row.correct = query.getColumn(10).getInt() != 0;
        }
        row.missed = strings(query.getColumn(11));
        row.added = strings(query.getColumn(12));
        if (!query.getColumn(13).isNull()) {
            row.residual = query.getColumn(13).getDouble();
        }
        examples.rows.push_back(std::move(row));
    }
    return examples;
}

}  // namespace store

std::optional<EvaluationExamples> RunStore::examples(std::int64_t runId) {
    return store::guarded(file_, "reading the examples of run " + std::to_string(runId),
                          [&] { return store::readExamples(*db_, runId); });
}

}  // namespace bert
