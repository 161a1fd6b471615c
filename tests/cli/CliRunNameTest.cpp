// Issue 44, point 11: a run trained from a model of the local hub cache was named after its
// snapshot's hash ("0123abcd… on reviews.csv #1"), the last component of
// .../models--org--name/snapshots/<revision>; it goes by its repo id, however it was given.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../core/TinyModel.h"
#include "cli/CliSupport.h"

namespace bert {
namespace {

using CliRunName = test::CliFixture;

TEST_F(CliRunName, ARunFromACachedModelIsNamedByItsRepoIdNotItsSnapshotHash) {
    const auto cache = dir_ / "hub";
    const std::string revision = "0123abcd4567ef890123abcd4567ef8901234567";
    test::cacheRepo(cache, "org/tiny-bert", revision, test::makeModel(2, 32, 4, 0.1, 3));
    test::StartOptions options;
    options.environment = {{"HF_HUB_CACHE", cache.string()}};
    const auto snapshot = cache / "models--org--tiny-bert" / "snapshots" / revision;
    // By repo id, by the snapshot folder, and by the snapshot folder with a trailing slash.
    for (const auto& model :
         {std::string("org/tiny-bert"), snapshot.string(), snapshot.string() + "/"}) {
        SCOPED_TRACE(model);
        const auto trained =
            test::runCli({"--db", db_, "train", "--model", model, "--train",
                          (dir_ / "reviews.csv").string(), "--text-column", "review",
                          "--label-column", "sentiment", "--max-steps", "1", "--max-length", "16"},
                         dir_.path(), options);
        ASSERT_EQ(trained.code, 0) << trained.err;
    }
    const auto listed = test::runCli({"--db", db_, "runs", "list", "--json"}, dir_.path());
    ASSERT_EQ(listed.code, 0) << listed.err;
    const auto runs = nlohmann::json::parse(listed.out);
    ASSERT_EQ(runs.size(), 3U) << listed.out;
    for (const auto& run : runs) {
        const auto name = run["name"].get<std::string>();
        EXPECT_EQ(name.rfind("org/tiny-bert on reviews.csv", 0), 0U) << name;
        EXPECT_EQ(name.find("0123abcd"), std::string::npos) << name;
    }
}

}  // namespace
}  // namespace bert
