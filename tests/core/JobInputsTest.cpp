// Issue 26, point 2: a resume trains exactly the run it resumes, so a run fingerprints every file
// its model is made of, in every family's layout: a BERT folder's vocab.txt, a RoBERTa folder's
// tokenizer.json, vocab.json and merges.txt, a sharded checkpoint's index and each of its shards,
// and the Hugging Face cache's snapshot links (through to their blobs). Only the CSV was
// fingerprinted once, and a changed tokenizer or shard resumed silently.
#include <algorithm>
#include <set>

#include <gtest/gtest.h>

#include "support/TestSupport.h"
#include "train/JobInputs.h"

namespace bert {
namespace {

class JobInputs : public ::testing::Test {
protected:
    void SetUp() override {
        model_ = dir_ / "roberta-sharded";
        std::filesystem::create_directories(model_);
        for (const char* name :
             {"config.json", "tokenizer.json", "tokenizer_config.json", "vocab.json", "merges.txt",
              "model.safetensors.index.json", "model-00001-of-00002.safetensors",
              "model-00002-of-00002.safetensors", "README.md", ".gitattributes"}) {
            test::writeFile(model_ / name, std::string("the bytes of ") + name);
        }
        test::writeFile(dir_ / "train.csv", "text,label\ngood,pos\nbad,neg\n");
        job_.modelFolder = model_;
        job_.data.trainFile = dir_ / "train.csv";
    }

    /// The file names a job's fingerprint lists with role "model".
    std::set<std::string> modelFilesOf(const TrainingJob& job) const {
        std::set<std::string> names;
        const auto inputs = fingerprintJobInputs(job);
        for (const auto& file : inputs["files"]) {
            if (file["role"] == "model") {
                names.insert(
                    std::filesystem::path(file["path"].get<std::string>()).filename().string());
            }
        }
        return names;
    }

    static bool mentions(const std::vector<std::string>& lines, const std::string& text) {
        return std::any_of(lines.begin(), lines.end(), [&](const std::string& line) {
            return line.find(text) != std::string::npos;
        });
    }

    test::TempDir dir_;
    std::filesystem::path model_;
    TrainingJob job_;
};

TEST_F(JobInputs, ARobertaFoldersTokenizerAndEveryShardAreFingerprinted) {
    EXPECT_EQ(
        modelFilesOf(job_),
        (std::set<std::string>{"config.json", "merges.txt", "model-00001-of-00002.safetensors",
                               "model-00002-of-00002.safetensors", "model.safetensors.index.json",
                               "tokenizer.json", "tokenizer_config.json", "vocab.json"}))
        << "a README or a .git file is not the model; everything else is";
    // A from-scratch preset uses only the folder's tokenizer.
    auto preset = job_;
    preset.preset = "tiny";
    EXPECT_EQ(modelFilesOf(preset), (std::set<std::string>{"merges.txt", "tokenizer.json",
                                                           "tokenizer_config.json", "vocab.json"}));
}

TEST_F(JobInputs, AChangedTokenizerOrShardIsNamedAndNothingElse) {
    const auto stored = fingerprintJobInputs(job_);
    EXPECT_TRUE(compareJobInputs(stored, job_).empty());

    test::writeFile(model_ / "tokenizer.json", "another tokenizer");
    test::writeFile(model_ / "model-00002-of-00002.safetensors", "other weights");
    std::filesystem::remove(model_ / "merges.txt");
    test::writeFile(model_ / "model-00003-of-00003.safetensors", "a third shard");
    test::writeFile(model_ / "README.md", "a README may change freely");
    const auto changes = compareJobInputs(stored, job_);
    EXPECT_EQ(changes.model.size(), 4U) << ::testing::PrintToString(changes.model);
    EXPECT_TRUE(mentions(changes.model, "tokenizer.json has changed"));
    EXPECT_TRUE(mentions(changes.model, "model-00002-of-00002.safetensors has changed"));
    EXPECT_TRUE(mentions(changes.model, "merges.txt is gone"));
    EXPECT_TRUE(mentions(changes.model, "model-00003-of-00003.safetensors is new"));
    EXPECT_TRUE(changes.data.empty());

    test::writeFile(dir_ / "train.csv", "text,label\ngood,pos\nbad,pos\n");
    EXPECT_TRUE(mentions(compareJobInputs(stored, job_).data, "train.csv has changed"));
}

// The Hugging Face cache keeps a snapshot's files as links to blobs: a run of `-m org/name`
// stores the snapshot's paths, and a blob that changes under a link is a changed model.
TEST_F(JobInputs, ASnapshotsLinksAreFingerprintedThroughToTheirBlobs) {
    const auto blobs = dir_ / "hub" / "blobs";
    const auto snapshot = dir_ / "hub" / "snapshots" / "c0ffee";
    std::filesystem::create_directories(blobs);
    std::filesystem::create_directories(snapshot);
    for (const char* name : {"config.json", "vocab.txt", "model.safetensors"}) {
        test::writeFile(blobs / (std::string("blob-") + name), std::string("bytes of ") + name);
        std::filesystem::create_symlink(blobs / (std::string("blob-") + name), snapshot / name);
    }
    job_.modelFolder = snapshot;
    EXPECT_EQ(modelFilesOf(job_),
              (std::set<std::string>{"config.json", "model.safetensors", "vocab.txt"}));
    const auto stored = fingerprintJobInputs(job_);
    test::writeFile(blobs / "blob-vocab.txt", "a shuffled vocabulary");
    const auto changes = compareJobInputs(stored, job_);
    ASSERT_EQ(changes.model.size(), 1U) << ::testing::PrintToString(changes.model);
    EXPECT_NE(changes.model[0].find("c0ffee/vocab.txt has changed"), std::string::npos)
        << changes.model[0];
}

}  // namespace
}  // namespace bert
