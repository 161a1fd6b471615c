#include <chrono>
#include <cstdio>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include <SQLiteCpp/SQLiteCpp.h>
#include <gtest/gtest.h>

#include "Error.h"
#include "TinyModel.h"
#include "runs/RunRecorder.h"
#include "runs/RunStore.h"
#include "support/TestSupport.h"

namespace bert {
namespace {

NewRun sampleRun() {
    NewRun run;
    run.name = "tiny run";
    run.config = {{"job", {{"training", {{"batch_size", 8}}}}}};
    run.labels = {"neg", "pos"};
    run.techniques = "dynamic padding";
    return run;
}

TEST(RunStore, RecordsARunThroughTheRecorder) {
    test::TempDir dir;
    RunStore store(dir / "runs.sqlite");
    const auto id = store.createRun(sampleRun());
    {
        RunRecorder recorder(store.file(), id);
        for (std::size_t step = 1; step <= 300; ++step) {
            StepMetrics m;
            m.step = step;
            m.loss = 1.0 / static_cast<double>(step);
            m.memory = {100, 200, 300};
            recorder.onStep(m);
        }
        EvalMetrics eval;
        eval.step = 300;
        eval.accuracy = 0.75;
        eval.confusion = {{3, 1}, {0, 4}};
        recorder.onEvaluation(eval);
        recorder.onEpochEnd({1, 700, 1000, 2.5});
        recorder.onEvent({EventKind::OomRecovered, 17, "halved", {{"to_micro_batch", 4}}});
        RunResult result;
        result.status = RunStatus::Completed;
        result.finalEval = eval;
        result.peakMemoryBytes = 12345;
        recorder.onFinished(result);
        EXPECT_EQ(recorder.lastError(), "");
    }
    const auto run = store.run(id);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, RunStatus::Completed);
    EXPECT_EQ(run->peakMemoryBytes, 12345);
    EXPECT_DOUBLE_EQ(run->bestAccuracy, 0.75);
    EXPECT_EQ(run->labels, (std::vector<std::string>{"neg", "pos"}));
    const auto steps = store.steps(id);
    ASSERT_EQ(steps.size(), 300U);
    EXPECT_DOUBLE_EQ(steps[9].loss, 0.1);
    EXPECT_EQ(steps[9].memory.reserved, 300);
    ASSERT_EQ(store.evaluations(id).size(), 1U);
    EXPECT_EQ(store.evaluations(id)[0].confusion[1][1], 4);
    ASSERT_EQ(store.epochs(id).size(), 1U);
    EXPECT_DOUBLE_EQ(store.epochs(id)[0].paddingShare(), 0.3);
    ASSERT_EQ(store.events(id).size(), 1U);
    EXPECT_EQ(store.events(id)[0].kind, EventKind::OomRecovered);
    EXPECT_EQ(store.events(id)[0].data["to_micro_batch"], 4);
}

// Found under ASan, where timing differs: a process opening a new database while another
// created it failed with "table store_meta already exists" (both ran the migration), and the
// command line died before its first step. Every opener must succeed, and the schema and the
// runs folder be chosen once.
TEST(RunStore, ProcessesOpeningANewDatabaseTogetherAllSucceed) {
    for (int round = 0; round < 20; ++round) {
        test::TempDir dir;
        const auto file = dir / "runs.sqlite";
        std::vector<pid_t> children;
        for (int i = 0; i < 8; ++i) {
            const pid_t pid = fork();
            if (pid == 0) {
                try {
                    RunStore store(file);
                    (void)store.runs();
                    _exit(store.runFolder(1).parent_path().filename() == "runs" ? 0 : 3);
                } catch (const std::exception& error) {
                    std::fprintf(stderr, "opener %d: %s\n", i, error.what());
                    _exit(2);
                } catch (...) {
                    _exit(2);
                }
            }
            children.push_back(pid);
        }
        for (const auto pid : children) {
            int status = 0;
            waitpid(pid, &status, 0);
            ASSERT_TRUE(WIFEXITED(status)) << "round " << round;
            EXPECT_EQ(WEXITSTATUS(status), 0) << "round " << round << ": an opener failed";
        }
        SQLite::Database db(file.string());
        EXPECT_EQ(db.execAndGet("SELECT count(*) FROM store_meta WHERE key = 'store_id'").getInt(),
                  1);
    }
}

TEST(RunStore, RenameNotesAndDeleteWithItsFolder) {
    test::TempDir dir;
    RunStore store(dir / "runs.sqlite");
    const auto id = store.createRun(sampleRun());
    store.rename(id, "renamed");
    store.setNotes(id, "lr too high");
    EXPECT_EQ(store.run(id)->name, "renamed");
    EXPECT_EQ(store.run(id)->notes, "lr too high");
    std::filesystem::create_directories(store.runFolder(id) / "best");
    // Issue 10: deleting a run that trains (here: in this live process) broke it.
    EXPECT_THROW(store.remove(id), InputError);
    EXPECT_TRUE(std::filesystem::exists(store.runFolder(id) / "best"));
    RunResult result;
    result.status = RunStatus::Completed;
    store.finishRun(id, result);
    store.remove(id);
    EXPECT_FALSE(store.run(id));
    EXPECT_FALSE(std::filesystem::exists(store.runFolder(id)));
    // Issue 10: renaming or deleting a run that does not exist succeeded silently.
    EXPECT_THROW(store.remove(id), InputError);
    EXPECT_THROW(store.rename(id, "ghost"), InputError);
    EXPECT_THROW(store.setNotes(id + 7, "ghost"), InputError);
}

TEST(RunStore, ARunWhoseProcessDiedIsMarkedInterruptedAtTheNextOpen) {
    test::TempDir dir;
    std::int64_t id = 0;
    {
        RunStore store(dir / "runs.sqlite");
        id = store.createRun(sampleRun());
        RunRecorder recorder(store.file(), id);
        StepMetrics m;
        m.step = 1;
        recorder.onStep(m);
        recorder.flush();
        // The process that "ran" it: a child that has exited.
        const pid_t child = fork();
        if (child == 0) {
            _exit(0);
        }
        waitpid(child, nullptr, 0);
        SQLite::Database db((dir / "runs.sqlite").string(), SQLite::OPEN_READWRITE);
        // Its lease (issue 26) and its row say so.
        db.exec("UPDATE runs SET pid = " + std::to_string(child) +
                " WHERE id = " + std::to_string(id));
        db.exec("UPDATE leases SET pid = " + std::to_string(child) +
                " WHERE run_id = " + std::to_string(id));
    }
    RunStore reopened(dir / "runs.sqlite");
    EXPECT_EQ(reopened.interruptedAtOpen(), std::vector<std::int64_t>{id});
    EXPECT_EQ(reopened.run(id)->status, RunStatus::Interrupted);
    EXPECT_EQ(reopened.steps(id).size(), 1U);
    ASSERT_FALSE(reopened.events(id).empty());
    EXPECT_EQ(reopened.events(id).back().kind, EventKind::Interrupted);
    // A run of this (live) process is left alone.
    const auto live = reopened.createRun(sampleRun());
    RunStore again(dir / "runs.sqlite");
    EXPECT_EQ(again.run(live)->status, RunStatus::Running);
}

TEST(RunStore, RefusesForeignAndNewerDatabases) {
    test::TempDir dir;
    {
        SQLite::Database db((dir / "foreign.sqlite").string(),
                            SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.exec("CREATE TABLE contacts (name TEXT)");
    }
    try {
        RunStore store(dir / "foreign.sqlite");
        FAIL() << "opened a foreign database";
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), dir / "foreign.sqlite");
        EXPECT_NE(std::string(error.what()).find("another application"), std::string::npos);
    }
    {
        RunStore store(dir / "new.sqlite");
        store.database().exec("PRAGMA user_version = 99");
    }
    try {
        RunStore store(dir / "new.sqlite");
        FAIL() << "opened a newer schema";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what()).find("newer BERT Studio"), std::string::npos);
    }
    test::writeFile(dir / "garbage.sqlite", std::string(4096, 'x'));
    EXPECT_THROW(RunStore(dir / "garbage.sqlite"), InputError);
    // An empty path would be SQLite's temporary database: runs would vanish.
    EXPECT_THROW(RunStore(std::filesystem::path()), InputError);
}

// Issue 11: every open of the store wrote (WAL switch, migrations, the interrupted-run sweep),
// the studio's read-only refreshes included; issue 10: opening someone else's SQLite file must
// not change it.
TEST(RunStore, AReadOnlyOpenWritesNothingAndStillReportsADeadRunInterrupted) {
    test::TempDir dir;
    const auto file = dir / "runs.sqlite";
    std::int64_t id = 0;
    {
        RunStore store(file);
        id = store.createRun(sampleRun());
        const pid_t child = fork();
        if (child == 0) {
            _exit(0);
        }
        waitpid(child, nullptr, 0);
        store.database().exec("UPDATE runs SET pid = " + std::to_string(child));
        store.database().exec("UPDATE leases SET pid = " + std::to_string(child));
    }
    const auto bytes = test::readFile(file);
    {
        RunStore reader(file, RunStore::Access::ReadOnly);
        const auto run = reader.run(id);
        ASSERT_TRUE(run);
        EXPECT_EQ(run->status, RunStatus::Interrupted)
            << "a dead process's run is shown as running";
        EXPECT_TRUE(reader.interruptedAtOpen().empty());
        EXPECT_THROW(reader.rename(id, "renamed"), StoreError);
    }
    // (SQLite may leave its -shm and -wal files beside a WAL database it read; the data is the
    // file.)
    EXPECT_EQ(test::readFile(file), bytes) << "a read-only open changed the database";
    SQLite::Database raw(file.string(), SQLite::OPEN_READONLY);
    EXPECT_EQ(raw.execAndGet("SELECT status FROM runs").getString(), "running")
        << "the run was marked";
    EXPECT_THROW(RunStore(dir / "missing.sqlite", RunStore::Access::ReadOnly), InputError);
    EXPECT_FALSE(std::filesystem::exists(dir / "missing.sqlite"));
}

TEST(RunStore, OpeningAnotherApplicationsDatabaseLeavesItAsItWas) {
    test::TempDir dir;
    const auto file = dir / "contacts.sqlite";
    {
        SQLite::Database db(file.string(), SQLite::OPEN_READWRITE | SQLite::OPEN_CREATE);
        db.exec("CREATE TABLE contacts (name TEXT); INSERT INTO contacts VALUES ('Ada')");
    }
    const auto bytes = test::readFile(file);
    EXPECT_THROW(RunStore(file, RunStore::Access::ReadOnly), InputError);
    EXPECT_THROW(RunStore{file}, InputError);
    EXPECT_EQ(test::readFile(file), bytes) << "the foreign database was changed (switched to WAL?)";
    SQLite::Database db(file.string(), SQLite::OPEN_READONLY);
    EXPECT_EQ(db.execAndGet("PRAGMA journal_mode").getString(), "delete");
}

// Issue 11: RunStore let raw SQLite exceptions out; they are StoreError naming the database
// and the operation.
TEST(RunStore, ALockedDatabaseIsAStoreErrorNamingTheFileAndTheOperation) {
    test::TempDir dir;
    setenv("BERT_STUDIO_DB_BUSY_MS", "100", 1);
    RunStore store(dir / "runs.sqlite");
    const auto id = store.createRun(sampleRun());
    SQLite::Database locker((dir / "runs.sqlite").string(), SQLite::OPEN_READWRITE);
    locker.exec("BEGIN EXCLUSIVE");
    try {
        store.rename(id, "renamed");
        FAIL() << "renamed under another writer's lock";
    } catch (const StoreError& error) {
        EXPECT_EQ(error.file(), dir / "runs.sqlite");
        EXPECT_NE(std::string(error.what()).find("renaming run " + std::to_string(id)),
                  std::string::npos)
            << error.what();
        EXPECT_NE(std::string(error.what()).find("locked"), std::string::npos) << error.what();
    }
    locker.exec("ROLLBACK");
    unsetenv("BERT_STUDIO_DB_BUSY_MS");
}

// Issue 10: another process holding the lock for 25 s lost steps 5 to 10 forever. The recorder
// keeps them and retries; an event says how late they were written.
TEST(RunStore, ALockedDatabaseDelaysMetricsButLosesNone) {
    test::TempDir dir;
    setenv("BERT_STUDIO_DB_BUSY_MS", "50", 1);
    RunStore store(dir / "runs.sqlite");
    const auto id = store.createRun(sampleRun());
    {
        RunRecorder recorder(store.file(), id);
        SQLite::Database locker((dir / "runs.sqlite").string(), SQLite::OPEN_READWRITE);
        locker.exec("BEGIN EXCLUSIVE");
        for (std::size_t step = 1; step <= 20; ++step) {
            StepMetrics m;
            m.step = step;
            m.loss = 0.5;
            recorder.onStep(m);
        }
        std::this_thread::sleep_for(
            std::chrono::milliseconds(1500));  // the recorder fails and retries
        locker.exec("ROLLBACK");
        recorder.flush();
        EXPECT_EQ(recorder.lastError(), "");
    }
    unsetenv("BERT_STUDIO_DB_BUSY_MS");
    EXPECT_EQ(store.steps(id).size(), 20U)
        << "steps written while the database was locked were lost";
    bool late = false;
    for (const auto& event : store.events(id)) {
        late = late || (event.message.find("s late") != std::string::npos &&
                        event.message.find("locked") != std::string::npos);
    }
    EXPECT_TRUE(late) << "no event says the metrics were written late";
}

// Issue 10: a finished run whose end could not be written was later marked "killed or crashed".
TEST(RunStore, AFinishedRunWhoseEndCannotBeRecordedIsNotCalledCrashed) {
    test::TempDir dir;
    setenv("BERT_STUDIO_DB_BUSY_MS", "50", 1);
    setenv("BERT_STUDIO_RECORDER_GIVE_UP_S", "0.5", 1);
    std::int64_t id = 0;
    {
        RunStore store(dir / "runs.sqlite");
        id = store.createRun(sampleRun());
        RunRecorder recorder(store.file(), id);
        SQLite::Database locker((dir / "runs.sqlite").string(), SQLite::OPEN_READWRITE);
        locker.exec("BEGIN EXCLUSIVE");
        RunResult result;
        result.status = RunStatus::Completed;
        result.steps = 40;
        result.finalEval.accuracy = 0.875;
        recorder.onFinished(result);  // returns once the recorder gave up
        EXPECT_NE(recorder.lastError().find("are lost"), std::string::npos) << recorder.lastError();
        locker.exec("ROLLBACK");
        EXPECT_TRUE(std::filesystem::exists(store.runFolder(id) / "result.json"));
        // The process that ran it ends.
        const pid_t child = fork();
        if (child == 0) {
            _exit(0);
        }
        waitpid(child, nullptr, 0);
        store.database().exec("UPDATE runs SET pid = " + std::to_string(child));
        store.database().exec("UPDATE leases SET pid = " + std::to_string(child));
    }
    unsetenv("BERT_STUDIO_RECORDER_GIVE_UP_S");
    unsetenv("BERT_STUDIO_DB_BUSY_MS");
    RunStore reopened(dir / "runs.sqlite");
    const auto run = reopened.run(id);
    ASSERT_TRUE(run);
    EXPECT_EQ(run->status, RunStatus::Completed) << run->error;
    EXPECT_DOUBLE_EQ(run->bestAccuracy, 0.875);
    EXPECT_FALSE(std::filesystem::exists(reopened.runFolder(id) / "result.json"));
}

// Issue 12: two run databases in one folder both used runs/<id>: one database's run 1 wrote its
// checkpoints into the other's, and deleting run 2 in one deleted the other's model.
TEST(RunStore, TwoDatabasesInOneFolderNeverShareRunFolders) {
    test::TempDir dir;
    RunStore a(dir / "runs.sqlite");
    RunStore b(dir / "b.sqlite");
    EXPECT_EQ(a.runFolder(1), dir / "runs" / "1") << "the default database keeps its runs/ folder";
    EXPECT_EQ(b.runFolder(1), dir / "b-runs" / "1");
    for (auto* store : {&a, &b}) {
        store->claimRunsFolder();
        for (int i = 0; i < 2; ++i) {
            const auto id = store->createRun(sampleRun());
            RunResult done;
            done.status = RunStatus::Completed;
            store->finishRun(id, done);
            std::filesystem::create_directories(store->runFolder(id) / "best");
            test::writeFile(store->runFolder(id) / "best" / "model.safetensors",
                            store->file().filename().string());
        }
    }
    b.remove(2);
    EXPECT_FALSE(std::filesystem::exists(b.runFolder(2)));
    EXPECT_EQ(test::readFile(a.runFolder(2) / "best" / "model.safetensors"), "runs.sqlite")
        << "deleting b's run 2 touched a's";

    // A runs folder another database marked is refused, and nothing in it is deleted.
    test::writeFile(dir / "b-runs" / ".bert-studio-database",
                    "someone-else\n/elsewhere/other.sqlite\n");
    try {
        b.claimRunsFolder();
        FAIL() << "claimed another database's runs folder";
    } catch (const InputError& error) {
        EXPECT_NE(std::string(error.what())
                      .find("belongs to another run database (/elsewhere/other.sqlite)"),
                  std::string::npos)
            << error.what();
    }
    EXPECT_THROW(b.remove(1), InputError);
    EXPECT_TRUE(std::filesystem::exists(b.runFolder(1) / "best" / "model.safetensors"));
}

}  // namespace
}  // namespace bert
