// Models from the local Hugging Face cache (issue 28, point 5): a fake hub cache laid out as
// huggingface_hub lays it out (models--org--name/refs/main, snapshots/<commit>/ with the files
// as links into blobs/), listed and resolved by repo id without any network.
#include <cstdlib>

#include <gtest/gtest.h>

#include "Error.h"
#include "TinyModel.h"
#include "hf/ModelCache.h"
#include "support/TestSupport.h"
#include "train/TrainingJobSpec.h"

namespace bert {
namespace {

TEST(ModelCache, ListsTheTrainableSnapshotsAndResolvesRepoIds) {
    test::TempDir dir;
    const auto cache = dir / "hub";
    test::cacheRepo(cache, "org/tiny-bert", "abc123", test::makeTinyModel(1));
    test::cacheRepo(cache, "other/tiny-modern", "def456",
                    test::makeFamilyModel("modernbert", 2, 32, 4, 0.0, 2), /*withRef=*/false);
    // Not ours: a family we do not train, and a repo with no weights.
    test::cacheRepo(cache, "org/deberta", "0001", test::makeTinyModel(3));
    test::writeFile(cache / "models--org--deberta" / "blobs" / "0001-config.json",
                    R"({"model_type": "xlnet"})");
    std::filesystem::create_directories(cache / "models--org--empty" / "snapshots" / "0002");

    const auto models = listCachedModels(cache);
    ASSERT_EQ(models.size(), 2U);
    EXPECT_EQ(models[0].repoId, "org/tiny-bert");
    EXPECT_EQ(models[0].revision, "abc123");
    EXPECT_EQ(models[0].family, "BERT");
    EXPECT_EQ(models[0].maxSequenceLength, 64);
    EXPECT_EQ(models[1].repoId, "other/tiny-modern");
    EXPECT_EQ(models[1].family, "ModernBERT");
    EXPECT_EQ(models[1].folder, cache / "models--other--tiny-modern" / "snapshots" / "def456");
    EXPECT_GT(models[1].parameters, 0);

    // A full id, a unique short name, and a folder, which stays itself.
    EXPECT_EQ(resolveModelFolder("org/tiny-bert", cache), models[0].folder);
    EXPECT_EQ(resolveModelFolder("tiny-modern", cache), models[1].folder);
    EXPECT_EQ(resolveModelFolder(dir.path().string(), cache), dir.path());
    const auto loaded = loadModelFolder(resolveModelFolder("org/tiny-bert", cache));
    EXPECT_TRUE(loaded.report.missingKeys.empty()) << loaded.report.describe();

    // Neither a folder nor cached: the message names the cache and what it holds.
    try {
        resolveModelFolder("FacebookAI/roberta-base", cache);
        FAIL() << "an unknown model resolved";
    } catch (const InputError& error) {
        const std::string message = error.what();
        EXPECT_NE(message.find("FacebookAI/roberta-base"), std::string::npos) << message;
        EXPECT_NE(message.find("cached: org/tiny-bert, other/tiny-modern"), std::string::npos)
            << message;
        EXPECT_NE(message.find("never downloads"), std::string::npos) << message;
    }
}

// Issue 44, point 11: a cached snapshot goes by its repo id in run names, not by its hash.
TEST(ModelCache, ASnapshotFolderIsNamedByItsRepoId) {
    test::TempDir dir;
    const auto cache = dir / "hub";
    test::cacheRepo(cache, "org/tiny-bert", "abc123", test::makeTinyModel(1));
    const auto snapshot = listCachedModels(cache).at(0).folder;
    EXPECT_EQ(modelFolderName(snapshot), "org/tiny-bert");
    EXPECT_EQ(modelFolderName(snapshot.string() + "/"), "org/tiny-bert");
    EXPECT_EQ(modelFolderName("/x/models--bert-base-uncased/snapshots/0001"), "bert-base-uncased");
    // Not a cache: a folder called "model" by its parent's name, any other by its own.
    EXPECT_EQ(modelFolderName("/opt/minilm/model"), "minilm");
    EXPECT_EQ(modelFolderName("/data/my-bert/"), "my-bert");
    EXPECT_EQ(modelFolderName("/x/snapshots/0001"), "0001");

    TrainingJob job;
    job.modelFolder = snapshot;
    job.data.trainFile = "/data/mails.csv";
    EXPECT_EQ(autoRunName(job, 7).rfind("org/tiny-bert on mails.csv", 0), 0U)
        << autoRunName(job, 7);
}

TEST(ModelCache, FindsTheCacheWhereHuggingFaceHubDoes) {
    const auto saved = [](const char* name) {
        const char* value = std::getenv(name);
        return value ? std::optional<std::string>(value) : std::nullopt;
    };
    const auto hubCache = saved("HF_HUB_CACHE");
    const auto home = saved("HF_HOME");
    ::setenv("HF_HUB_CACHE", "/tmp/hub-cache", 1);
    ::setenv("HF_HOME", "/tmp/hf-home", 1);
    EXPECT_EQ(huggingFaceCache(), "/tmp/hub-cache");
    ::unsetenv("HF_HUB_CACHE");
    EXPECT_EQ(huggingFaceCache(), std::filesystem::path("/tmp/hf-home/hub"));
    ::unsetenv("HF_HOME");
    EXPECT_EQ(huggingFaceCache().filename(), "hub");
    for (const auto& [name, value] : {std::pair{"HF_HUB_CACHE", hubCache}, {"HF_HOME", home}}) {
        if (value) {
            ::setenv(name, value->c_str(), 1);
        }
    }
}

}  // namespace
}  // namespace bert
