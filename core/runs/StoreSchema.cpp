// The run database's schema: one migration per version (runs/StoreSql.h migrationFrom).
#include <iterator>

#include "runs/RunStore.h"
#include "runs/StoreSql.h"

namespace bert::store {

namespace {

// One entry per schema version; entry k migrates version k to k + 1. Append, never edit.
const char* const kMigrations[] = {
    R"SQL(
    CREATE TABLE runs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        name TEXT NOT NULL,
        created_at TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        status TEXT NOT NULL,
        config_json TEXT NOT NULL,
        dataset_path TEXT NOT NULL DEFAULT '',
        dataset_fingerprint TEXT NOT NULL DEFAULT '',
        base_model TEXT NOT NULL DEFAULT '',
        labels_json TEXT NOT NULL DEFAULT '[]',
        techniques TEXT NOT NULL DEFAULT '',
        final_metrics_json TEXT NOT NULL DEFAULT '{}',
        best_accuracy REAL NOT NULL DEFAULT 0,
        peak_memory_bytes INTEGER NOT NULL DEFAULT 0,
        forecast_bytes INTEGER NOT NULL DEFAULT 0,
        forecast_json TEXT NOT NULL DEFAULT '{}',
        trial_peak_bytes INTEGER NOT NULL DEFAULT 0,
        measured_json TEXT NOT NULL DEFAULT '{}',
        device TEXT NOT NULL DEFAULT '',
        seconds REAL NOT NULL DEFAULT 0,
        error TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT '',
        resumed_from INTEGER NOT NULL DEFAULT 0,
        pid INTEGER NOT NULL DEFAULT 0,
        host TEXT NOT NULL DEFAULT ''
    );
    CREATE TABLE steps (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        epoch REAL NOT NULL,
        loss REAL NOT NULL,
        learning_rate REAL NOT NULL,
        memory_current INTEGER NOT NULL,
        memory_peak INTEGER NOT NULL,
        memory_reserved INTEGER NOT NULL,
        samples_per_second REAL NOT NULL,
        tokens_per_second REAL NOT NULL,
        padding_share REAL NOT NULL,
        loss_scale REAL NOT NULL,
        grad_norm REAL NOT NULL,
        micro_batch INTEGER NOT NULL,
        accumulation INTEGER NOT NULL,
        skipped INTEGER NOT NULL,
        PRIMARY KEY (run_id, step)
    );
    CREATE TABLE evaluations (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        epoch REAL NOT NULL,
        loss REAL NOT NULL,
        accuracy REAL NOT NULL,
        macro_f1 REAL NOT NULL,
        confusion_json TEXT NOT NULL
    );
    CREATE INDEX evaluations_run ON evaluations(run_id, step);
    CREATE TABLE epochs (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        epoch INTEGER NOT NULL,
        real_tokens INTEGER NOT NULL,
        padded_tokens INTEGER NOT NULL,
        padding_share REAL NOT NULL,
        seconds REAL NOT NULL,
        PRIMARY KEY (run_id, epoch)
    );
    CREATE TABLE events (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        time TEXT NOT NULL,
        kind TEXT NOT NULL,
        message TEXT NOT NULL,
        data_json TEXT NOT NULL
    );
    CREATE INDEX events_run ON events(run_id, id);
    CREATE TABLE checkpoints (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        kind TEXT NOT NULL,
        path TEXT NOT NULL,
        metric REAL NOT NULL,
        created_at TEXT NOT NULL
    );
    )SQL",
    // 2: a loss or gradient norm that is not finite is kept (NaN as NULL: SQLite stores NaN as
    // NULL, and the NOT NULL constraint once dropped every row of the batch); one evaluation per
    // (run, step), the newest kept (a resume once wrote step 56 four times).
    R"SQL(
    CREATE TABLE steps_v2 (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        epoch REAL NOT NULL,
        loss REAL,
        learning_rate REAL NOT NULL,
        memory_current INTEGER NOT NULL,
        memory_peak INTEGER NOT NULL,
        memory_reserved INTEGER NOT NULL,
        samples_per_second REAL NOT NULL,
        tokens_per_second REAL NOT NULL,
        padding_share REAL NOT NULL,
        loss_scale REAL NOT NULL,
        grad_norm REAL,
        micro_batch INTEGER NOT NULL,
        accumulation INTEGER NOT NULL,
        skipped INTEGER NOT NULL,
        PRIMARY KEY (run_id, step)
    );
    INSERT INTO steps_v2 SELECT * FROM steps;
    DROP TABLE steps;
    ALTER TABLE steps_v2 RENAME TO steps;
    CREATE TABLE evaluations_v2 (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        epoch REAL NOT NULL,
        loss REAL,
        accuracy REAL NOT NULL,
        macro_f1 REAL NOT NULL,
        confusion_json TEXT NOT NULL,
        PRIMARY KEY (run_id, step)
    );
    INSERT INTO evaluations_v2
        SELECT run_id, step, epoch, loss, accuracy, macro_f1, confusion_json FROM evaluations
        WHERE rowid IN (SELECT max(rowid) FROM evaluations GROUP BY run_id, step);
    DROP TABLE evaluations;
    ALTER TABLE evaluations_v2 RENAME TO evaluations;
    )SQL",
    // 3: what this database is (store_id) and where its runs' checkpoints go (runs_folder,
    // relative to the database's folder): two databases in one folder once shared runs/<id>.
    R"SQL(
    CREATE TABLE store_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    )SQL",
    // 4: a data-parallel step's memory on every rank, [[current, peak, reserved], ...] by rank
    // (NULL in one process).
    R"SQL(
    ALTER TABLE steps ADD COLUMN rank_memory_json TEXT;
    )SQL",
    // 5 (issue 26): one process trains a run: a lease row, claimed in one transaction and renewed
    // by its holder; and what a run was made of (absolute paths and fingerprints of its model
    // and data files), so that a resume trains exactly that.
    R"SQL(
    CREATE TABLE leases (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        token TEXT NOT NULL,
        purpose TEXT NOT NULL,
        pid INTEGER NOT NULL,
        host TEXT NOT NULL,
        machine TEXT NOT NULL,
        claimed_at TEXT NOT NULL,
        expires_at REAL NOT NULL
    );
    ALTER TABLE runs ADD COLUMN inputs_json TEXT NOT NULL DEFAULT '{}';
    )SQL",
    // 6 (issue 29): the report of a task other than single-label (its headline, figures and
    // tables, task/TaskObjective.h); NULL for single-label, whose figures are the columns.
    R"SQL(
    ALTER TABLE evaluations ADD COLUMN task_json TEXT;
    )SQL",
    // 7: single-label's calibration (task/Calibration.h: ECE, the reliability diagram, the
    // fitted temperature); NULL for the other tasks and for evaluations stored before.
    R"SQL(
    ALTER TABLE evaluations ADD COLUMN calibration_json TEXT;
    )SQL",
    // 8: the per-example results of the evaluation whose weights a run serves (its best;
    // task/ExampleResults.h), highest loss first (position 0), replaced when a better one comes.
    R"SQL(
    CREATE TABLE example_sets (
        run_id INTEGER PRIMARY KEY REFERENCES runs(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        evaluated INTEGER NOT NULL
    );
    CREATE TABLE examples (
        run_id INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
        position INTEGER NOT NULL,
        example INTEGER NOT NULL,
        line INTEGER NOT NULL,
        text TEXT NOT NULL,
        pair TEXT NOT NULL,
        truth TEXT NOT NULL,
        predicted TEXT NOT NULL,
        truth_class INTEGER,
        predicted_class INTEGER,
        truth_probability REAL,
        loss REAL,
        correct INTEGER,
        missed_json TEXT,
        added_json TEXT,
        residual REAL,
        PRIMARY KEY (run_id, position)
    );
    )SQL",
};
static_assert(std::size(kMigrations) == RunStore::kSchemaVersion);

}  // namespace

const char* migrationFrom(int version) {
    return kMigrations[version];
}

}  // namespace bert::store
