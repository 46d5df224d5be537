"""An nvcc Invocation turned into the clang commands that build the same thing with pygraph.

Contract: one compile command per source (as nvcc itself compiles them), with
  .cu (or -x cu)   clang++ -x cuda --cuda-path --cuda-gpu-arch=... (host and device)
  .cpp .cc .cxx    clang++ -x c++, the toolkit's include folders added (as nvcc adds them)
  .c               clang -x c, likewise (-std=c++NN is not passed: it names a C++ dialect)
each with the plugin (and PYGRAPH_PLUGIN_ARGS's options, plugin_env.py), the
clang-vs-nvcc fixes (CUDA_FIXES with the headers of include/, CXX_FIXES,
nvcc_macros, toolkit_includes, spaced chevrons through chevrons.overlay) and,
unless quiet or the plugin is disabled, the flags that save its remarks for
the summary line; then, when
linking, one clang++ link of the objects in command order with the pygraph
runtime and the CUDA runtime nvcc would link (static cudart by default).
Device code is optimised at -O3 whatever the host's -O (as nvcc does), except
under -G.
"""
import os
import re
import subprocess

from . import arch, chevrons, plugin_env, summary
from .errors import DriverError
from .execute import Job

COMPAT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "include")
CUDA_FIXES = ("-Wno-unknown-cuda-version", "-Wno-register",
              "-include", os.path.join(COMPAT, "pygraph_nvcc_host_minmax.h"),
              "-include", os.path.join(COMPAT, "pygraph_nvcc_atomics.h"),
              "-include", os.path.join(COMPAT, "pygraph_nvcc_cudacc.h"))
CXX_FIXES = ("-Wno-register",)


def plan(inv, layout, tmpdir, gpu_query=None):
    """(jobs, warnings) for inv."""
    if not inv.inputs:
        raise DriverError("no input files")
    sources = [i for i in inv.inputs if i.kind != "link"]
    if inv.mode != "link" and inv.output and len(sources) > 1:
        raise DriverError("-o %s names one output, but %d sources are compiled"
                          % (inv.output, len(sources)))
    needs_arch = any(i.kind == "cu" for i in sources) or (inv.mode == "link" and inv.rdc)
    archs = arch.ArchSet()
    if needs_arch:
        archs = arch.resolve(inv.gencode_tokens + (inv.code_tokens or inv.arch_tokens),
                             inv.old_arch_warning, gpu_query)
    if inv.mode == "ptx" and len(archs.archs) > 1:
        raise DriverError("-ptx builds one architecture; got %s" % ", ".join(archs.archs))
    host = openmp(inv.host_flags, layout)
    env_args = plugin_env.flags()
    jobs, objects = [], {}
    for n, inp in enumerate(sources):
        out = output_of(inv, inp, n, tmpdir)
        objects[id(inp)] = out
        jobs.append(compile_job(inv, layout, inp, out, archs.archs, host, tmpdir, n, env_args))
    if inv.mode == "link":
        jobs.append(link_job(inv, layout, objects, host, archs.archs))
    return jobs, archs.warnings


def output_of(inv, inp, n, tmpdir):
    stem = os.path.splitext(os.path.basename(inp.path))[0]
    if inv.mode == "link":
        return os.path.join(tmpdir, "%d-%s.o" % (n, stem))
    if inv.output:
        return inv.output
    if inv.mode in ("preprocess", "deps"):
        return None  # standard output
    ext = ".ptx" if inv.mode == "ptx" else ".o"
    return os.path.join(inv.output_dir or "", stem + ext)


def compile_job(inv, layout, inp, out, archs, host, tmpdir, n, env_args=()):
    """env_args: PYGRAPH_PLUGIN_ARGS's flags, given where the plugin is loaded."""
    codegen = inv.mode in ("link", "compile", "ptx")
    plugin_args = [a for a in host if a.startswith(plugin_env.PREFIX)] + list(env_args)
    argv = [layout.clang_c() if inp.kind == "c" else layout.clang]
    if inp.kind == "cu":
        argv += ["--cuda-path=" + layout.cuda] + ["--cuda-gpu-arch=" + a for a in archs]
        argv += list(CUDA_FIXES) + nvcc_macros(layout.cuda)
        argv += {"preprocess": ["--cuda-host-only"], "deps": ["--cuda-host-only"],
                 "ptx": ["--cuda-device-only", "-S"]}.get(inv.mode, [])
    elif inp.kind == "cpp":
        argv += list(CXX_FIXES)
    if codegen:
        layout.require_plugin()
        argv.append("-fplugin=" + layout.plugin)
    argv += inv.flags + (inv.cxx_flags if inp.kind != "c" else []) + host
    argv += list(env_args) if codegen else []
    argv += toolkit_includes(layout, inp.kind)
    if inp.kind == "cu":
        argv += inv.cuda_flags + (["-fgpu-rdc"] if inv.rdc else []) + device_opt(inv)
        ov = chevrons.overlay(inp.path, include_dirs(inv.flags), tmpdir)
        argv += ["-ivfsoverlay", ov] if ov else []
    argv += inv.dep_flags
    record = None
    summarize = (codegen and inv.mode != "ptx" and not summary.quiet()
                 and not summary.user_saves_record(host))
    if summarize and not plugin_env.disabled(plugin_args):  # disabled: nothing to read
        record = os.path.join(tmpdir, "%d.opt.yaml" % n)
        argv += summary.record_flags(record, offload=inp.kind == "cu")
    argv += {"preprocess": ["-E"], "deps": [inv.deps_kind or "-M"], "ptx": []}.get(inv.mode, ["-c"])
    argv += ["-x", {"cu": "cuda", "cpp": "c++", "c": "c"}[inp.kind], inp.path]
    argv += ["-o", out] if out else []
    return Job(argv, inp.path if summarize else None, record, plugin_args)


def toolkit_includes(layout, kind):
    """The toolkit folders nvcc searches after the user's: include/ (clang adds it
    itself for CUDA) and CUDA 13's include/cccl (thrust, cub, libcu++)."""
    inc = os.path.join(layout.cuda, "include")
    dirs = {"cu": [os.path.join(inc, "cccl")], "cpp": [inc, os.path.join(inc, "cccl")], "c": [inc]}
    return [f for d in dirs[kind] for f in ("-isystem", d)]


_VERSIONS = {}


def nvcc_macros(cuda):
    """__CUDACC_VER_MAJOR__/MINOR__/BUILD__, which nvcc defines in CUDA compiles
    and clang does not (__CUDACC__'s value is include/pygraph_nvcc_cudacc.h's): code
    testing them (`#if __CUDACC_VER_MAJOR__ >= 9` before __shfl_down_sync)
    would take its pre-CUDA-9 path.  The version is the toolkit's CUDA_VERSION
    (cuda.h); BUILD is 0.  Not __NVCC__: CCCL would then treat clang as nvcc."""
    if cuda not in _VERSIONS:
        _VERSIONS[cuda] = []
        try:
            with open(os.path.join(cuda, "include", "cuda.h"), encoding="latin-1") as f:
                m = re.search(r"^#define\s+CUDA_VERSION\s+(\d+)", f.read(), re.M)
        except OSError:
            m = None
        if m:
            v = int(m.group(1))
            _VERSIONS[cuda] += ["-D__CUDACC_VER_MAJOR__=%d" % (v // 1000),
                               "-D__CUDACC_VER_MINOR__=%d" % (v % 1000 // 10), "-D__CUDACC_VER_BUILD__=0"]
    return _VERSIONS[cuda]


def device_opt(inv):
    """nvcc optimises device code unless -G, whatever -O says about the host."""
    if inv.device_debug:
        return ["--cuda-noopt-device-debug", "-Xarch_device", "-g", "-Xarch_device", "-O0"]
    return ["-Xarch_device", "-O3"]


def include_dirs(flags):
    return [f[2:] for f in flags if f.startswith("-I") and len(f) > 2]


def link_job(inv, layout, objects, host, archs):
    argv = [layout.clang] + host + ["-Qunused-arguments"]
    for item in inv.link_seq:
        argv.append(item if isinstance(item, str) else objects.get(id(item), item.path))
    if inv.rdc:  # device code of -rdc objects is linked by clang's offload linker
        argv += ["--offload-link", "--cuda-path=" + layout.cuda]
    argv += ["-o", inv.output or "a.out"] + layout.runtime_link_flags(inv.cudart)
    return Job(argv)


_OPENMP = {}


def openmp(host_flags, layout):
    """-fopenmp as clang can honour it here: clang's own libomp when its omp.h is
    installed, else GCC's libgomp with GCC's omp.h (what nvcc's host compiler used)."""
    if "-fopenmp" not in host_flags:
        return list(host_flags)
    if layout.clang not in _OPENMP:
        _OPENMP[layout.clang] = ["-fopenmp"]
        res = capture([layout.clang, "-print-resource-dir"])
        if not res or not os.path.isfile(os.path.join(res, "include", "omp.h")):
            gcc_include = capture(["gcc", "-print-file-name=include"])
            if gcc_include and os.path.isfile(os.path.join(gcc_include, "omp.h")):
                _OPENMP[layout.clang] = ["-fopenmp=libgomp", "-idirafter", gcc_include]
    out = []
    for f in host_flags:
        out += _OPENMP[layout.clang] if f == "-fopenmp" else [f]
    return out


def capture(argv):
    try:
        return subprocess.run(argv, capture_output=True, text=True, timeout=60).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return ""
