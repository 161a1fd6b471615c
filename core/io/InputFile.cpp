#include "io/InputFile.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "Error.h"
#include "text/Format.h"

namespace bert {

namespace {

const char* kindOf(std::filesystem::file_type type) {
    switch (type) {
        case std::filesystem::file_type::directory:
            return "a directory";
        case std::filesystem::file_type::fifo:
            return "a FIFO (named pipe)";
        case std::filesystem::file_type::character:
            return "a character device";
        case std::filesystem::file_type::block:
            return "a block device";
        case std::filesystem::file_type::socket:
            return "a socket";
        default:
            return "not a regular file";
    }
}

}  // namespace

void checkInputFile(const std::filesystem::path& file, std::uint64_t maxBytes) {
    std::error_code error;
    const auto status =
        std::filesystem::status(file, error);  // follows links: a link to a FIFO is a FIFO
    if (error || status.type() == std::filesystem::file_type::not_found) {
        throw InputError(file, status.type() == std::filesystem::file_type::not_found
                                   ? "does not exist"
                                   : "cannot be examined: " + error.message());
    }
    if (status.type() != std::filesystem::file_type::regular) {
        throw InputError(file, std::string("is ") + kindOf(status.type()) + ", not a regular file");
    }
    const auto size = std::filesystem::file_size(file, error);
    if (!error && size > maxBytes) {
        throw InputError(file, "is " + formatBytes(static_cast<double>(size)) + "; files over " +
                                   formatBytes(static_cast<double>(maxBytes)) +
                                   " are not read here");
    }
}

std::string readInputFile(const std::filesystem::path& file, std::uint64_t maxBytes) {
    checkInputFile(file, maxBytes);
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        throw InputError(file,
                         std::string("cannot be opened for reading: ") + std::strerror(errno));
    }
    std::ostringstream content;
    content << in.rdbuf();
    if (in.bad()) {
        throw InputError(file, "could not be read");
    }
    return std::move(content).str();
}

}  // namespace bert
