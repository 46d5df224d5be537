"""GPU architectures: nvcc's spellings to the --cuda-gpu-arch values clang 22 builds with CUDA 13.

Contract of resolve(): every requested architecture becomes one clang can
build, or a DriverError naming it; nothing is dropped.  clang embeds PTX
beside the SASS of every architecture, so a GPU newer than the one built for
still runs the program (the driver JIT-compiles the PTX).

  below sm_75 (CUDA 13 dropped them)   -> sm_75, with one warning per command
  sm_88, sm_101, sm_110, ... (CUDA 13 has them, clang 22 cannot emit their PTX version)
                                       -> the closest lower one clang builds, with a warning
  compute_XX (PTX only)                -> sm_XX (clang always adds the PTX)
  sm_XXf (family)                      -> sm_XX
  native, or no architecture given     -> the GPUs nvidia-smi lists, else DEFAULT_ARCH
  all / all-major                      -> every / every major architecture below
PYGRAPH_CUDA_ARCH (comma list) replaces the default (not an explicit -arch).
"""
import os
import re
import subprocess

from .errors import DriverError

DEFAULT_ARCH = "sm_90"
# What clang 22 builds against CUDA 13 (checked by compiling a kernel for each).
CLANG_ARCHS = (75, 80, 86, 87, 89, 90, 100, 103, 120, 121)
ARCH_SPECIFIC = (90, 100, 103, 120, 121)   # sm_XXa exists
MAJOR_ARCHS = (75, 80, 90, 100, 120)
ARCH_TOKEN = re.compile(r"^(sm|compute|lto)_(\d+)([af]?)$")


class ArchSet:
    """Architectures resolved for one command, and the warnings to print."""

    def __init__(self):
        self.archs = []
        self.warnings = []

    def add(self, arch):
        if arch not in self.archs:
            self.archs.append(arch)


def resolve(tokens, warn_old=True, gpu_query=None):
    """tokens: nvcc architecture names (sm_60, compute_90, native, ...), in
    command order; empty: the default.  Returns an ArchSet."""
    result = ArchSet()
    old = []
    for token in tokens or ["default"]:
        if token in ("native", "default"):
            for arch in default_archs(gpu_query):
                add_one(arch, result, old)
        elif token in ("all", "all-major"):
            for num in (CLANG_ARCHS if token == "all" else MAJOR_ARCHS):
                result.add("sm_%d" % num)
        else:
            add_one(token, result, old)
    if old and warn_old:
        result.warnings.append(
            "CUDA 13 has no %s; building sm_75, the lowest architecture it has "
            "(-Wno-deprecated-gpu-targets silences this)" % ", ".join(old))
    return result


def add_one(token, result, old):
    m = ARCH_TOKEN.match(token)
    if not m:
        raise DriverError("unknown GPU architecture '%s' (expected sm_XX or compute_XX)" % token)
    num, suffix = int(m.group(2)), m.group(3)
    if num < CLANG_ARCHS[0]:
        if token not in old:
            old.append(token)
        result.add("sm_%d" % CLANG_ARCHS[0])
        return
    if num in CLANG_ARCHS:
        keep_a = suffix == "a" and num in ARCH_SPECIFIC
        result.add("sm_%d%s" % (num, "a" if keep_a else ""))
        return
    lower = max(n for n in CLANG_ARCHS if n < num)
    result.warnings.append("clang 22 cannot build %s; building sm_%d, whose PTX the driver "
                           "compiles for %s at load time" % (token, lower, token))
    result.add("sm_%d" % lower)


def default_archs(gpu_query=None):
    """PYGRAPH_CUDA_ARCH, else the GPUs of this machine, else DEFAULT_ARCH."""
    env = os.environ.get("PYGRAPH_CUDA_ARCH", "").strip()
    if env:
        return [a.strip() for a in env.split(",") if a.strip()]
    found = (gpu_query or query_gpus)()
    return found or [DEFAULT_ARCH]


def query_gpus():
    """sm_XY of every GPU nvidia-smi lists (compute capability X.Y); [] without one."""
    try:
        out = subprocess.run(["nvidia-smi", "--query-gpu=compute_cap", "--format=csv,noheader"],
                             capture_output=True, text=True, timeout=20).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    archs = []
    for line in out.splitlines():
        m = re.fullmatch(r"\s*(\d+)\.(\d+)\s*", line)
        if m and "sm_%s%s" % m.groups() not in archs:
            archs.append("sm_%s%s" % m.groups())
    return archs
