#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace bert::test {

/// A fresh folder under the system temp folder, removed with everything in it on destruction.
class TempDir {
public:
    TempDir();
    ~TempDir();
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;
    const std::filesystem::path& path() const { return path_; }
    std::filesystem::path operator/(const std::string& name) const { return path_ / name; }

private:
    std::filesystem::path path_;
};

/// The venv's Python configured at build time, or empty.
std::string referencePython();

/// Why the reference (venv Python and the bundled MiniLM) is unavailable, or empty when it is
/// there.
std::string referenceUnavailable();

/// Runs tests/parity/reference.py with args under the venv's Python, offline. Returns its exit
/// code; its output goes to log (shown by the caller on failure).
int runReference(const std::vector<std::string>& args, const std::filesystem::path& log);
/// Runs another script of the source tree (a path relative to it) with the reference Python,
/// the same way; returns its exit code.
int runPythonScript(const std::string& script, const std::vector<std::string>& args,
                    const std::filesystem::path& log);

/// A file of ../shared/data, or empty when the shared data is absent.
std::filesystem::path sharedDataFile(const std::string& name);

/// The whole content of a file.
std::string readFile(const std::filesystem::path& file);
void writeFile(const std::filesystem::path& file, const std::string& content);

/// Source tree path of a test data file.
std::filesystem::path sourcePath(const std::string& relative);

/// One piece of a SentencePiece model: its text, score and type (sentencepiece_model.proto:
/// 1 normal, 2 unknown, 3 control, 4 user defined).
struct SentencePieceEntry {
    std::string text;
    float score = 0.0F;
    int type = 1;
};
/// The bytes of an spm.model written by hand in protobuf's wire format: ModelProto's pieces, and
/// a trainer spec with model_type (1 Unigram, 2 BPE) and unk_id.
std::string sentencePieceModelFile(const std::vector<SentencePieceEntry>& pieces, int modelType = 1,
                                   int unkId = 3);

}  // namespace bert::test
