#pragma once

// A parity suite whose reference cases a Python script writes once for the whole suite
// (`<script> make <folder>`: one folder per case, made by transformers itself). Each suite names
// its script; the cases are made in SetUpTestSuite, and every test skips with the reason when the
// reference (the venv's Python) is unavailable.

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/TestSupport.h"

namespace bert::test {

/// Suite is the derived fixture (CRTP); it declares static constexpr const char* kScript, the
/// script's path from the source root ("tests/parity/families.py").
template <typename Suite>
class ScriptCases : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        if (!referenceUnavailable().empty()) {
            return;
        }
        dir_ = new TempDir();
        const auto log = dir_->path() / "cases.log";
        status_ = runPythonScript(Suite::kScript, {"make", (dir_->path() / "cases").string()}, log);
        if (status_ != 0) {
            std::cerr << readFile(log);
        }
    }
    static void TearDownTestSuite() {
        delete dir_;
        dir_ = nullptr;
    }
    void SetUp() override {
        if (const auto why = referenceUnavailable(); !why.empty()) {
            GTEST_SKIP() << why;
        }
        ASSERT_EQ(status_, 0) << Suite::kScript << " failed";
    }

    /// The case folders, sorted by name.
    static std::vector<std::filesystem::path> caseFolders() {
        std::vector<std::filesystem::path> folders;
        for (const auto& entry : std::filesystem::directory_iterator(dir_->path() / "cases")) {
            folders.push_back(entry.path());
        }
        std::sort(folders.begin(), folders.end());
        return folders;
    }

    static inline TempDir* dir_ = nullptr;
    static inline int status_ = -1;
};

}  // namespace bert::test
