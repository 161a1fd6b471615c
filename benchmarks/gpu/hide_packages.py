#!/usr/bin/env python3
"""The paths to hide so that a build cannot reach the system's copies of some Debian packages.

Usage: hide_packages.py PACKAGE...   (prints one path a line: directories first, then files)

For each installed package, `dpkg -L` lists its files. Each file is hidden through the first
directory above it that only this package owns (e.g. /usr/include/nlohmann), else the file itself
(e.g. /usr/include/utf8proc.h). Runtime libraries (libfoo.so.N) and links stay: programs outside
the build, Python's sqlite3 and mount among them, still load them. The GPU kit's rehearsal (rehearse.sh) bind-mounts
an empty directory or file over each printed path in a mount namespace of its own, so that its
build finds the kit's unpacked prefix or nothing, as on the GPU machine.
"""
import os
import re
import subprocess
import sys

# Directories that many packages share: never hidden whole.
SHARED = {"/", "/usr", "/usr/include", "/usr/lib", "/usr/lib/x86_64-linux-gnu", "/usr/lib/cmake",
          "/usr/lib/x86_64-linux-gnu/cmake", "/usr/lib/x86_64-linux-gnu/pkgconfig", "/usr/share",
          "/usr/share/pkgconfig", "/usr/share/cmake", "/usr/src", "/usr/bin", "/usr/include/x86_64-linux-gnu"}
# What a build never reads.
SKIPPED = ("/usr/share/doc", "/usr/share/lintian", "/usr/share/man", "/usr/share/bug")
RUNTIME_LIBRARY = re.compile(r"\.so\.\d")


def files_of(package):
    listed = subprocess.run(["dpkg", "-L", package], capture_output=True, text=True)
    if listed.returncode != 0:
        return []
    return [line for line in listed.stdout.splitlines() if line.startswith("/")]


def main():
    packages = sys.argv[1:]
    owned = {}  # path -> the packages that list it
    for package in packages:
        for path in files_of(package):
            owned.setdefault(path, set()).add(package)
    # A directory is hidden whole when, of the packages named, only the file's own lists it.
    hidden = set()
    for path, owners in owned.items():
        if path.startswith(SKIPPED) or not os.path.lexists(path) or os.path.isdir(path):
            continue
        # A mount over a link lands on what it points to: the linker's libfoo.so links stay,
        # since hiding them would hide the runtime library that the system's own programs load
        # (mount itself needs libpcre2-8.so.0).
        if RUNTIME_LIBRARY.search(os.path.basename(path)) or os.path.islink(path):
            continue
        top = path
        parent = os.path.dirname(path)
        while parent not in SHARED and len(owned.get(parent, ())) == 1 and owned[parent] == owners:
            top = parent
            parent = os.path.dirname(parent)
        hidden.add(top)
    # Only the outermost of nested paths.
    ordered = sorted(hidden)
    kept = [path for path in ordered
            if not any(path != other and path.startswith(other + "/") for other in ordered)]
    for path in sorted(kept, key=lambda p: (not os.path.isdir(p), p)):
        print(path)


if __name__ == "__main__":
    main()
