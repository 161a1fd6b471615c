// Issue 26: the run store as users trust git: one process trains a run (its lease), a runs
// folder is always the database's own, a database reached through a link is the real file, and
// what scales with the labels is stored sparse.
#include <chrono>
#include <csignal>
#include <sys/resource.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "Error.h"
#include "runs/RunLease.h"
#include "runs/RunRecorder.h"
#include "runs/RunStore.h"
#include "support/TestSupport.h"
#include "train/Metrics.h"

namespace bert {
namespace {

NewRun aRun() {
    NewRun run;
    run.name = "run";
    run.config = {{"job", {{"training", {{"batch_size", 8}}}}}};
    run.labels = {"neg", "pos"};
    return run;
}

/// A child process that waits until killed: a live holder that is not this process.
struct LiveProcess {
    pid_t pid = fork();
    LiveProcess() {
        if (pid == 0) {
            for (;;) {
                pause();
            }
        }
    }
    ~LiveProcess() { stop(); }
    void stop() {
        if (pid > 0) {
            kill(pid, SIGKILL);
            waitpid(pid, nullptr, 0);
            pid = -1;
        }
    }
};

// Two `resume 1` started together both trained it (issue 26, point 4): the claim is a lease row
// written under the write lock, and a live holder's lease refuses every other claim, naming it.
TEST(RunLease, ALiveHoldersLeaseRefusesEveryOtherClaimAndADeadOnesDoesNot) {
    test::TempDir dir;
    RunStore store(dir / "runs.sqlite");
    const auto id = store.createRun(aRun());
    {
        SQLite::Database db((dir / "runs.sqlite").string(), SQLite::OPEN_READONLY);
        EXPECT_EQ(db.execAndGet("SELECT count(*) FROM leases WHERE run_id = " + std::to_string(id))
                      .getInt(),
                  1)
            << "createRun writes the run and its lease together";
    }
    LiveProcess other;
    store.database().exec("UPDATE leases SET pid = " + std::to_string(other.pid));
    try {
        const RunLease second(store.file(), id, "resumed");
        FAIL() << "claimed a run another live process holds";
    } catch (const StoreError& error) {
        EXPECT_NE(std::string(error.what())
                      .find("run " + std::to_string(id) + " is being trained by process " +
                            std::to_string(other.pid)),
                  std::string::npos)
            << error.what();
    }
    EXPECT_EQ(store.run(id)->status, RunStatus::Running);
    EXPECT_THROW(store.remove(id), InputError) << "deleted a run that trains";

    other.stop();  // the holder dies: on this machine its lease dies with it, at once
    EXPECT_EQ(store.run(id)->status, RunStatus::Interrupted);
    {
        const RunLease claimed(store.file(), id, "resumed");
        SQLite::Database db((dir / "runs.sqlite").string(), SQLite::OPEN_READONLY);
        EXPECT_EQ(db.execAndGet("SELECT pid FROM leases").getInt64(),
                  static_cast<std::int64_t>(getpid()));
        EXPECT_EQ(db.execAndGet("SELECT purpose FROM leases").getString(), "resumed");
    }
    SQLite::Database db((dir / "runs.sqlite").string(), SQLite::OPEN_READONLY);
    EXPECT_EQ(db.execAndGet("SELECT count(*) FROM leases").getInt(), 0)
        << "a lease outlived its holder's RunLease";
}

// Liveness is the lease, not pid plus host name: a database moved to another machine or
// container cannot check the holder's pid, so its lease counts until it expires, and then the run
// is interrupted, not stuck "running" forever; `runs delete --force` exists for the rest.
TEST(RunLease, AnotherMachinesLeaseHoldsUntilItExpires) {
    test::TempDir dir;
    const auto file = dir / "runs.sqlite";
    std::int64_t id = 0;
    {
        RunStore store(file);
        id = store.createRun(aRun());
        store.database().exec(
            "UPDATE leases SET machine = 'elsewhere/boot/pid:[1]', host = 'elsewhere', "
            "pid = 1, expires_at = strftime('%s','now') + 3600");
        store.database().exec("UPDATE runs SET host = 'elsewhere', pid = 1");
    }
    {
        RunStore store(file);
        const auto run = store.run(id);
        EXPECT_EQ(run->status, RunStatus::Running);
        EXPECT_NE(run->holder.find("process 1 on elsewhere"), std::string::npos) << run->holder;
        EXPECT_TRUE(store.interruptedAtOpen().empty());
        EXPECT_THROW(RunLease(store.file(), id, "resumed"), StoreError);
        EXPECT_THROW(store.remove(id), InputError);
        // Expired: the holder stopped renewing it, wherever it was.
        store.database().exec("UPDATE leases SET expires_at = strftime('%s','now') - 1");
    }
    RunStore store(file);
    EXPECT_EQ(store.interruptedAtOpen(), std::vector<std::int64_t>{id});
    EXPECT_EQ(store.run(id)->status, RunStatus::Interrupted);

    const auto held = store.createRun(aRun());
    store.database().exec(
        "UPDATE leases SET machine = 'elsewhere', pid = 1, "
        "expires_at = strftime('%s','now') + 3600 WHERE run_id = " +
        std::to_string(held));
    EXPECT_THROW(store.remove(held), InputError);
    store.remove(held, /*force=*/true);
    EXPECT_FALSE(store.run(held));
}

// A crafted or shared database's store_meta.runs_folder made `runs delete` empty an unrelated
// folder: a runs folder is always one beside the database, named as the store names them.
TEST(RunStoreTrust, ARunsFolderIsAlwaysTheOneBesideTheDatabase) {
    test::TempDir dir;
    std::filesystem::create_directories(dir / "victim" / "1");
    test::writeFile(dir / "victim" / "1" / "thesis.tex", "years of work");
    std::filesystem::create_directories(dir / "db");
    {
        RunStore store(dir / "db" / "runs.sqlite");
        store.createRun(aRun());
    }
    for (const char* crafted : {"../victim", "/tmp", "victim", "."}) {
        {
            SQLite::Database db((dir / "db" / "runs.sqlite").string(), SQLite::OPEN_READWRITE);
            db.exec(std::string("UPDATE store_meta SET value = '") + crafted +
                    "' WHERE key = 'runs_folder'");
        }
        try {
            RunStore store(dir / "db" / "runs.sqlite");
            store.remove(1, /*force=*/true);
            FAIL() << "used runs folder " << crafted;
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find("not a runs folder beside it"),
                      std::string::npos)
                << error.what();
        }
    }
    EXPECT_EQ(test::readFile(dir / "victim" / "1" / "thesis.tex"), "years of work");
}

// A copy of a database beside the original keeps the original's id: it must not take the
// original's checkpoints (deleting its run 1 deleted the original's).
TEST(RunStoreTrust, ACopyOfADatabaseLeavesTheOriginalsCheckpointsAlone) {
    test::TempDir dir;
    {
        RunStore store(dir / "runs.sqlite");
        store.claimRunsFolder();
        const auto id = store.createRun(aRun());
        RunResult done;
        store.finishRun(id, done);
        std::filesystem::create_directories(store.runFolder(id) / "best");
        test::writeFile(store.runFolder(id) / "best" / "model.safetensors", "weights");
    }
    std::filesystem::copy_file(dir / "runs.sqlite", dir / "copy.sqlite");
    {
        // The copy is named copy.sqlite but says its runs are in runs/.
        RunStore copy(dir / "copy.sqlite");
        try {
            copy.remove(1);
            FAIL() << "a copy deleted the original's checkpoints";
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find("is a copy"), std::string::npos)
                << error.what();
        }
    }
    EXPECT_EQ(test::readFile(dir / "runs" / "1" / "best" / "model.safetensors"), "weights");
    // Moved with its runs folder, the original takes its folder over.
    std::filesystem::create_directories(dir / "moved");
    std::filesystem::rename(dir / "runs.sqlite", dir / "moved" / "runs.sqlite");
    std::filesystem::rename(dir / "runs", dir / "moved" / "runs");
    RunStore moved(dir / "moved" / "runs.sqlite");
    moved.remove(1);
    EXPECT_FALSE(std::filesystem::exists(dir / "moved" / "runs" / "1"));
}

// --db through a symbolic link put checkpoints beside the link, where export and delete through
// the real path missed them.
TEST(RunStoreTrust, ADatabaseThroughASymbolicLinkIsTheRealFile) {
    test::TempDir dir;
    std::filesystem::create_directories(dir / "real");
    std::filesystem::create_directories(dir / "links");
    { RunStore store(dir / "real" / "runs.sqlite"); }
    std::filesystem::create_symlink(dir / "real" / "runs.sqlite", dir / "links" / "runs.sqlite");
    RunStore throughLink(dir / "links" / "runs.sqlite");
    EXPECT_EQ(throughLink.file(), std::filesystem::canonical(dir / "real" / "runs.sqlite"));
    EXPECT_EQ(throughLink.runFolder(1), std::filesystem::canonical(dir / "real") / "runs" / "1");
}

// A zero-byte database said "older or no schema", a folder "disk I/O error".
TEST(RunStoreTrust, AnEmptyFileOrAFolderAsDatabaseSaysSo) {
    test::TempDir dir;
    test::writeFile(dir / "empty.sqlite", "");
    try {
        RunStore store(dir / "empty.sqlite", RunStore::Access::ReadOnly);
        FAIL();
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("is an empty file (0 bytes)"), std::string::npos)
            << error.what();
    }
    std::filesystem::create_directories(dir / "folder.sqlite");
    for (const auto access : {RunStore::Access::ReadOnly, RunStore::Access::ReadWrite}) {
        try {
            RunStore store(dir / "folder.sqlite", access);
            FAIL();
        } catch (const InputError& error) {
            EXPECT_NE(std::string(error.what()).find("is a folder, not a run database file"),
                      std::string::npos)
                << error.what();
        }
    }
}

// With 5,000 labels each evaluation stored a dense 5000 x 5000 matrix as JSON (50 MB), the
// database reached 300 MB in 40 steps and `runs list` took 2.2 GB. Past 256 classes it is
// stored sparse, and past 1,024 not read back into memory.
TEST(RunStoreTrust, AConfusionMatrixOfManyClassesIsStoredSparse) {
    test::TempDir dir;
    RunStore store(dir / "runs.sqlite");
    const auto id = store.createRun(aRun());
    for (const std::size_t classes : {std::size_t{300}, std::size_t{2000}}) {
        EvalMetrics eval;
        eval.step = classes;
        eval.accuracy = 0.5;
        eval.macroF1 = 0.25;
        eval.confusion.assign(classes, std::vector<std::int64_t>(classes, 0));
        for (std::size_t i = 0; i < classes; ++i) {
            eval.confusion[i][(i * 7) % classes] = 1 + static_cast<std::int64_t>(i % 3);
        }
        RunRecorder recorder(store.file(), id);
        recorder.onEvaluation(eval);
        RunResult result;
        result.finalEval = eval;
        result.bestEval = eval;
        recorder.onFinished(result);
        ASSERT_EQ(recorder.lastError(), "");
        SQLite::Database db((dir / "runs.sqlite").string(), SQLite::OPEN_READONLY);
        const auto stored =
            db.execAndGet("SELECT length(confusion_json) FROM evaluations WHERE step = " +
                          std::to_string(classes))
                .getInt64();
        std::cout << classes << " classes: " << stored << " bytes stored\n";
        EXPECT_LT(stored, static_cast<std::int64_t>(classes) * 20)
            << "stored dense: " << stored << " bytes";
        EXPECT_LT(db.execAndGet("SELECT length(final_metrics_json) FROM runs").getInt64(),
                  static_cast<std::int64_t>(classes) * 40);
        for (const auto& read : store.evaluations(id)) {
            if (read.step != classes) {
                continue;
            }
            EXPECT_DOUBLE_EQ(read.accuracy, 0.5);
            if (classes <= kReadableConfusionClasses) {
                EXPECT_EQ(read.confusion, eval.confusion);
            } else {
                EXPECT_TRUE(read.confusion.empty()) << "a 2000 x 2000 matrix read into memory";
            }
        }
    }
    // Small matrices stay as they always were: dense rows.
    const ConfusionMatrix small = {{3, 1}, {0, 4}};
    EXPECT_EQ(confusionToJson(small), nlohmann::json({{3, 1}, {0, 4}}));
    EXPECT_EQ(confusionFromJson(confusionToJson(small)), small);
}

// A full disk (here: a file-size limit, EFBIG) or a damaged table is not a lock: the recorder
// once retried them for 300 s, twice, in silence. Now it gives the rows up at once and makes the
// run stop (every later callback throws StoreError).
TEST(RunStoreTrust, ARecorderGivesUpAtOnceWhenTheDiskRefuses) {
    test::TempDir dir;
    std::int64_t id = 0;
    {
        RunStore store(dir / "runs.sqlite");
        id = store.createRun(aRun());
    }
    const pid_t child = fork();
    if (child == 0) {
        alarm(120);  // a recorder that waits it out dies here, and the test fails
        ::setenv("BERT_STUDIO_RECORDER_GIVE_UP_S", "3600", 1);
        signal(SIGXFSZ, SIG_IGN);
        try {
            RunRecorder recorder(dir / "runs.sqlite", id);
            std::error_code none;
            const auto wal = std::filesystem::file_size(dir / "runs.sqlite-wal", none);
            const auto size = std::filesystem::file_size(dir / "runs.sqlite") + (none ? 0 : wal);
            const rlimit limit{size + 4096, size + 4096};
            setrlimit(RLIMIT_FSIZE, &limit);
            StepMetrics step;
            for (std::size_t i = 1; i <= 2000; ++i) {
                step.step = i;
                recorder.onStep(step);
            }
            recorder.flush();
            const auto error = recorder.lastError();
            if (error.find("records could not be written and are lost") == std::string::npos) {
                std::fprintf(stderr, "lastError: %s\n", error.c_str());
                _exit(2);
            }
            try {
                recorder.onStep(step);
                _exit(3);  // it went on recording as if nothing happened
            } catch (const StoreError& refused) {
                std::fprintf(stderr, "%s\n", refused.what());
                _exit(std::string(refused.what()).find("can no longer be recorded") !=
                              std::string::npos
                          ? 0
                          : 4);
            }
        } catch (const std::exception& error) {
            std::fprintf(stderr, "%s\n", error.what());
            _exit(5);
        }
    }
    int status = 0;
    waitpid(child, &status, 0);
    ASSERT_TRUE(WIFEXITED(status)) << "the recorder waited (killed by signal "
                                   << (WIFSIGNALED(status) ? WTERMSIG(status) : 0) << ")";
    EXPECT_EQ(WEXITSTATUS(status), 0);
}

}  // namespace
}  // namespace bert
