#!/usr/bin/env python3
"""Unpacks .deb files into a private prefix, as `dpkg -x` would, without dpkg: a .deb is an ar
archive whose data.tar.{xz,gz,zst} holds the files. The GPU machine builds against the unpacked
Debian packages; nothing is written outside the prefix.

Usage: unpack_debs.py PREFIX FILE.deb...
"""
import io
import sys
import tarfile
from pathlib import Path


def members(archive):
    """(name, bytes) of each member of an ar archive."""
    data = Path(archive).read_bytes()
    if not data.startswith(b"!<arch>\n"):
        sys.exit(f"{archive}: not a .deb (ar) archive")
    offset = 8
    while offset + 60 <= len(data):
        header = data[offset:offset + 60]
        name = header[:16].decode().strip().rstrip("/")
        size = int(header[48:58].decode().strip())
        yield name, data[offset + 60:offset + 60 + size]
        offset += 60 + size + (size & 1)


def unpack(archive, prefix):
    for name, content in members(archive):
        if not name.startswith("data.tar"):
            continue
        if name.endswith(".zst"):
            sys.exit(f"{archive}: zstd-compressed data ({name}) needs dpkg -x")
        with tarfile.open(fileobj=io.BytesIO(content)) as tar:
            for member in tar.getmembers():
                target = (prefix / member.name).resolve()
                if prefix.resolve() not in target.parents and target != prefix.resolve():
                    sys.exit(f"{archive}: {member.name} would land outside {prefix}")
            tar.extractall(prefix, filter="tar") if hasattr(tarfile, "data_filter") else tar.extractall(prefix)
        return
    sys.exit(f"{archive}: no data.tar member")


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    prefix = Path(sys.argv[1])
    prefix.mkdir(parents=True, exist_ok=True)
    for archive in sys.argv[2:]:
        unpack(archive, prefix)
    print(f"unpacked {len(sys.argv) - 2} packages into {prefix}")


if __name__ == "__main__":
    main()
