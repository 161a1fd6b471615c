#include <csignal>
#include <cstring>
#include <sys/resource.h>

#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include "Error.h"
#include "hf/SafeTensors.h"
#include "support/TestSupport.h"

namespace bert {
namespace {

// Builds a safetensors file by hand: 8-byte length, header text, data bytes.
std::string rawFile(const std::string& header, const std::string& data) {
    std::string file(8, '\0');
    const std::uint64_t length = header.size();
    std::memcpy(file.data(), &length, sizeof length);
    return file + header + data;
}

// Expects readSafeTensors(file) to throw InputError naming the file and containing fragment.
void expectRejected(const std::filesystem::path& file, const std::string& fragment) {
    try {
        readSafeTensors(file);
        FAIL() << "expected InputError for " << file;
    } catch (const InputError& error) {
        EXPECT_EQ(error.file(), file);
        EXPECT_NE(std::string(error.what()).find(fragment), std::string::npos)
            << "message: " << error.what();
    }
}

TEST(SafeTensors, RoundTripsEveryFloatTypeAndMetadata) {
    test::TempDir dir;
    const auto f32 = at::randn({3, 5});
    const auto f16 = at::randn({4}).to(at::kHalf);
    const auto bf16 = at::randn({2, 2, 2}).to(at::kBFloat16);
    const auto i64 = at::arange(7, at::kLong);
    const auto nonContiguous = at::randn({4, 6}).t();
    writeSafeTensors(
        dir / "t.safetensors",
        {{"f32", f32}, {"f16", f16}, {"bf16", bf16}, {"i64", i64}, {"t", nonContiguous}},
        {{"format", "pt"}});
    const auto file = readSafeTensors(dir / "t.safetensors");
    ASSERT_EQ(file.tensors.size(), 5U);
    EXPECT_TRUE(at::equal(file.find("f32"), f32));
    EXPECT_TRUE(at::equal(file.find("f16"), f16));
    EXPECT_EQ(file.find("bf16").scalar_type(), at::kBFloat16);
    EXPECT_TRUE(at::equal(file.find("bf16"), bf16));
    EXPECT_TRUE(at::equal(file.find("i64"), i64));
    EXPECT_TRUE(at::equal(file.find("t"), nonContiguous));
    EXPECT_EQ(file.metadata.at("format"), "pt");
}

TEST(SafeTensors, TruncatedFileIsRejected) {
    test::TempDir dir;
    writeSafeTensors(dir / "ok.safetensors", {{"w", at::randn({16, 16})}});
    const auto bytes = test::readFile(dir / "ok.safetensors");
    test::writeFile(dir / "cut.safetensors", bytes.substr(0, bytes.size() - 100));
    expectRejected(dir / "cut.safetensors", "outside the data section");
    test::writeFile(dir / "stub.safetensors", bytes.substr(0, 5));
    expectRejected(dir / "stub.safetensors", "shorter than its 8-byte header length");
    test::writeFile(dir / "header.safetensors", bytes.substr(0, 30));
    expectRejected(dir / "header.safetensors", "does not fit a file of 30 bytes");
}

TEST(SafeTensors, OffsetsThatLieAreRejected) {
    test::TempDir dir;
    const std::string data(16, '\0');
    test::writeFile(dir / "beyond.safetensors",
                    rawFile(R"({"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,64]}})", data));
    expectRejected(dir / "beyond.safetensors", "lie outside the data section of 16 bytes");
    test::writeFile(dir / "overlap.safetensors",
                    rawFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8]},)"
                            R"("b":{"dtype":"F32","shape":[2],"data_offsets":[4,12]},)"
                            R"("c":{"dtype":"F32","shape":[1],"data_offsets":[12,16]}})",
                            data));
    expectRejected(dir / "overlap.safetensors", "overlaps");
    test::writeFile(dir / "gap.safetensors",
                    rawFile(R"({"a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}})", data));
    expectRejected(dir / "gap.safetensors", "gap of 8");
    test::writeFile(dir / "reversed.safetensors",
                    rawFile(R"({"a":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}})", data));
    expectRejected(dir / "reversed.safetensors", "data_offsets [8, 0]");
}

TEST(SafeTensors, ByteCountMustMatchDtypeAndShape) {
    test::TempDir dir;
    test::writeFile(
        dir / "f.safetensors",
        rawFile(R"({"w":{"dtype":"F16","shape":[3],"data_offsets":[0,8]}})", std::string(8, '\0')));
    expectRejected(dir / "f.safetensors", "holds 8 bytes but dtype F16 and shape [3] need 6");
    test::writeFile(
        dir / "d.safetensors",
        rawFile(R"({"w":{"dtype":"C64","shape":[1],"data_offsets":[0,8]}})", std::string(8, '\0')));
    expectRejected(dir / "d.safetensors", "unsupported dtype \"C64\"");
    test::writeFile(dir / "s.safetensors",
                    rawFile(R"({"w":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}})",
                            std::string(4, '\0')));
    expectRejected(dir / "s.safetensors", "holds something other than sizes");
}

TEST(SafeTensors, HeaderMustBeJson) {
    test::TempDir dir;
    test::writeFile(dir / "j.safetensors", rawFile("{not json at all}", ""));
    expectRejected(dir / "j.safetensors", "the header is not valid JSON");
    test::writeFile(dir / "a.safetensors", rawFile("[1, 2, 3]", ""));
    expectRejected(dir / "a.safetensors", "does not start with a JSON object");
}

TEST(SafeTensors, FailedWriteLeavesTheEarlierFileIntact) {
    test::TempDir dir;
    const auto first = at::randn({8});
    writeSafeTensors(dir / "w.safetensors", {{"w", first}});
    // A complex tensor cannot be stored: the write fails before anything replaces the file.
    EXPECT_THROW(
        writeSafeTensors(dir / "w.safetensors",
                         {{"w", at::randn({8})}, {"z", at::randn({2}, at::kComplexFloat)}}),
        InputError);
    EXPECT_TRUE(at::equal(readSafeTensors(dir / "w.safetensors").find("w"), first));
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir.path())) {
        ++files;
    }
    EXPECT_EQ(files, 1U) << "a temporary file was left behind";
}

TEST(SafeTensors, UnwritableTargetNamesTheFile) {
    test::TempDir dir;
    try {
        writeSafeTensors(dir / "no-such-folder" / "w.safetensors", {{"w", at::randn({2})}});
        FAIL() << "expected StoreError";
    } catch (const StoreError& error) {
        EXPECT_EQ(error.file(), dir / "no-such-folder" / "w.safetensors");
        EXPECT_NE(std::string(error.what()).find("No such file or directory"), std::string::npos)
            << error.what();
    }
}

TEST(SafeTensors, WriteThatRunsOutOfSpaceKeepsTheOldFileAndNamesTheNewOne) {
    // RLIMIT_FSIZE makes the kernel refuse writes past a size, as a full disk refuses them.
    test::TempDir dir;
    const auto first = at::randn({8});
    writeSafeTensors(dir / "w.safetensors", {{"w", first}});
    rlimit saved{};
    ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &saved), 0);
    const auto previousHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit small = saved;
    small.rlim_cur = 64 * 1024;
    ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &small), 0);
    std::string message;
    try {
        writeSafeTensors(dir / "w.safetensors", {{"w", at::randn({1024, 1024})}});
    } catch (const StoreError& error) {
        message = error.what();
    }
    setrlimit(RLIMIT_FSIZE, &saved);
    std::signal(SIGXFSZ, previousHandler);
    EXPECT_NE(message.find((dir / "w.safetensors").string()), std::string::npos) << message;
    EXPECT_NE(message.find("File too large"), std::string::npos) << message;
    EXPECT_TRUE(at::equal(readSafeTensors(dir / "w.safetensors").find("w"), first));
}

}  // namespace
}  // namespace bert
