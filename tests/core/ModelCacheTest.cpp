// Models from the local Hugging Face cache (issue 28, point 5): a fake hub cache laid out as
// huggingface_hub lays it out (models--org--name/refs/main, snapshots/<commit>/ with the files
// as links into blobs/), listed and resolved by repo id without any network.
#include <cstdlib>

#include <gtest/gtest.h>

#include "Error.h"
#include "TinyModel.h"
#include "hf/ModelCache.h"
#include "support/TestSupport.h"

namespace bert {
namespace {

// Writes bundle's folder as the cache keeps it: the files in blobs/, linked from the snapshot.
void cacheRepo(const std::filesystem::path& cache, const std::string& repo,
               const std::string& revision, const ModelBundle& bundle, bool withRef = true) {
    auto name = "models--" + repo;
    name.replace(name.find('/'), 1, "--");
    const auto root = cache / name;
    const auto staging = root / "staging";
    exportModelFolder(staging, *bundle.model, *bundle.tokenizer);
    std::filesystem::create_directories(root / "blobs");
    std::filesystem::create_directories(root / "snapshots" / revision);
    for (const auto& entry : std::filesystem::directory_iterator(staging)) {
        const auto blob = root / "blobs" / (revision + "-" + entry.path().filename().string());
        std::filesystem::rename(entry.path(), blob);
        std::filesystem::create_symlink(
            std::filesystem::path("../../blobs") / blob.filename(),
            root / "snapshots" / revision / entry.path().filename());
    }
    std::filesystem::remove(staging);
    if (withRef) {
        std::filesystem::create_directories(root / "refs");
        test::writeFile(root / "refs" / "main", revision);
    }
}

TEST(ModelCache, ListsTheTrainableSnapshotsAndResolvesRepoIds) {
    test::TempDir dir;
    const auto cache = dir / "hub";
    cacheRepo(cache, "org/tiny-bert", "abc123", test::makeTinyModel(1));
    cacheRepo(cache, "other/tiny-modern", "def456",
              test::makeFamilyModel("modernbert", 2, 32, 4, 0.0, 2), /*withRef=*/false);
    // Not ours: a family we do not train, and a repo with no weights.
    cacheRepo(cache, "org/deberta", "0001", test::makeTinyModel(3));
    test::writeFile(cache / "models--org--deberta" / "blobs" / "0001-config.json",
                    R"({"model_type": "deberta-v2"})");
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
