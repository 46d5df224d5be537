"""pygraph-clang++: clang++ with the pygraph plugin and, when linking, the pygraph and CUDA runtimes.

Contract: the user's clang arguments are passed unchanged, in order, with
  -fplugin=<plugin>                                        always
  -fplugin-arg-pygraph-NAME[=VALUE] per PYGRAPH_PLUGIN_ARGS word, after them (plugin_env.py)
  for a CUDA compile (-x cuda, or a .cu input):
    --cuda-path=<toolkit>            unless given
    --cuda-gpu-arch=<default>        unless --cuda-gpu-arch/--offload-arch is given: the GPU
                                     nvidia-smi shows, else sm_90 (PYGRAPH_CUDA_ARCH sets it)
    --cuda-gpu-arch=sm_XX below sm_75 becomes sm_75 (CUDA 13 has none lower), with a warning
    -Wno-unknown-cuda-version, -isystem <toolkit>/include/cccl
  when linking: -L<runtime> -lpygraph_rt -L<toolkit>/lib64 -lcudart_static -ldl -lrt -lpthread
and a summary line per compiled source (see summary.py).
"""
import os
import shutil
import subprocess
import sys
import tempfile

from . import arch, execute, layout as layout_mod, messages, plugin_env, summary
from .errors import DriverError
from .execute import Job
from .version import version_text

PROG = "pygraph-clang++"
NO_LINK = ("-c", "-S", "-E", "-M", "-MM", "-fsyntax-only", "--precompile", "-###", "--help",
           "--version", "-print-resource-dir", "--cuda-device-only")
NO_CODEGEN = ("-E", "-M", "-MM", "-fsyntax-only", "-###", "--help", "--version")
VALUE_OPTS = {"-o", "-I", "-L", "-x", "-MF", "-MT", "-MQ", "-include", "-isystem", "-idirafter",
              "-iquote", "-imacros", "-Xclang", "-Xlinker", "-Xassembler", "-Xpreprocessor",
              "-Xarch_host", "-Xarch_device", "-Xcuda-ptxas", "-Xcuda-fatbinary",
              "-Xoffload-linker", "-mllvm", "-target", "-ivfsoverlay", "-D", "-U", "-z", "-T",
              "-u", "-e", "-arch"}
SOURCE_EXTS = (".cu", ".cpp", ".cc", ".cxx", ".c", ".C", ".c++")
HELP = """\
pygraph-clang++: clang++ with the pygraph plugin; what it adds to clang's command line:
  -fplugin=<libpygraph.so>; when linking, -lpygraph_rt and the static CUDA runtime
  PYGRAPH_PLUGIN_ARGS="NAME[=VALUE] ..." adds -fplugin-arg-pygraph-NAME[=VALUE] for each
  word, after your own arguments ("disable": clang's own compile, nothing of pygraph's)
  CUDA compiles (-x cuda or .cu): --cuda-path=<toolkit> unless given, a GPU architecture
  unless given (the GPU nvidia-smi shows, else sm_90; PYGRAPH_CUDA_ARCH sets it),
  --cuda-gpu-arch below sm_75 raised to sm_75 (CUDA 13 has none lower),
  -Wno-unknown-cuda-version, -isystem <toolkit>/include/cccl
  one summary line per compiled source on stderr (PYGRAPH_QUIET=1: off)
  --pygraph-version    versions and paths;  --pygraph-dry-run   print the command only
For nvcc command lines (Makefiles with CC=nvcc) use pygraph-nvcc.
clang's own help follows.

"""


def main(argv, script_dir):
    try:
        lay = layout_mod.find(script_dir)
        if "--pygraph-version" in argv:
            print(version_text(PROG, lay))
            return 0
        if "--help" in argv:
            print(HELP, end="")
            sys.stdout.flush()
            return subprocess.call([lay.clang, "--help"])
        dry = "--pygraph-dry-run" in argv
        args = [a for a in argv if a != "--pygraph-dry-run"]
        return build(args, lay, dry)
    except (DriverError, layout_mod.LayoutError) as e:
        messages.error(PROG, str(e))
        return 1


def build(args, lay, dry):
    lay.require_plugin()
    sources = source_inputs(args)
    cuda = any(s.endswith(".cu") for s in sources) or has_pair(args, "-x", "cuda")
    argv = [lay.clang, "-fplugin=" + lay.plugin]
    if cuda:
        argv += cuda_flags(args, lay)
    argv += [a for a in args if not is_arch(a)] if cuda else list(args)
    env_args = plugin_env.flags()
    argv += env_args
    plugin_args = [a for a in args if a.startswith(plugin_env.PREFIX)] + env_args
    tmpdir = tempfile.mkdtemp(prefix="pygraph-clang-")
    records = {}
    try:
        records = plan_records(args, sources, cuda, tmpdir, plugin_env.disabled(plugin_args))
        for flag in records["flags"]:
            argv.append(flag)
        if links(args):
            argv += lay.runtime_link_flags("static")
        rc = execute.run([Job(argv)], PROG, dry_run=dry)
        if rc == 0 and not dry:
            for src, rec in records["files"]:
                print(summary.line(src, rec, plugin_args), file=sys.stderr, flush=True)
        return rc
    finally:
        for _, rec in records.get("cleanup", []):
            try:
                os.remove(rec)
            except OSError:
                pass
        shutil.rmtree(tmpdir, ignore_errors=True)


def cuda_flags(args, lay):
    out = []
    if not any(a.startswith("--cuda-path") for a in args):
        out.append("--cuda-path=" + lay.cuda)
    given = [a.split("=", 1)[1] for a in args if is_arch(a)]
    tokens = [t for g in given for t in g.split(",")]
    if any(t in ("native",) for t in tokens):
        out += [a for a in args if is_arch(a)]
    else:
        archs = arch.resolve(tokens, warn_old=True)
        for text in archs.warnings:
            messages.warning(PROG, text)
        out += ["--cuda-gpu-arch=" + a for a in archs.archs]
    out += ["-Wno-unknown-cuda-version", "-isystem", os.path.join(lay.cuda, "include", "cccl")]
    return out


def is_arch(a):
    return a.startswith("--cuda-gpu-arch=") or a.startswith("--offload-arch=")


def plan_records(args, sources, cuda, tmpdir, disabled=False):
    """The flags that save each source's remarks, and where (see summary.py).
    One source: a file of ours.  Several: clang's own naming, <stem>.opt.yaml
    in the current folder, only if none of those exists (nothing of the
    user's is overwritten), removed after reading.  A disabled plugin: no
    record, each source's line says so."""
    none = {"flags": [], "files": [], "cleanup": []}
    if (summary.quiet() or not sources or summary.user_saves_record(args)
            or any(a in NO_CODEGEN for a in args)):
        return none
    if disabled:
        return {"flags": [], "files": [(s, None) for s in sources], "cleanup": []}
    if len(sources) == 1:
        rec = os.path.join(tmpdir, "0.opt.yaml")
        return {"flags": summary.record_flags(rec, cuda), "files": [(sources[0], rec)], "cleanup": []}
    named = [(s, os.path.splitext(os.path.basename(s))[0] + ".opt.yaml") for s in sources]
    if len({n for _, n in named}) != len(named) or any(os.path.exists(n) for _, n in named):
        messages.note(PROG, "no summary line: a <source>.opt.yaml of this command already exists")
        return none
    return {"flags": summary.record_flags(None, cuda), "files": named, "cleanup": named}


def source_inputs(args):
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
        elif a in VALUE_OPTS:
            skip = True
        elif not a.startswith("-") and a.endswith(SOURCE_EXTS):
            out.append(a)
    return out


def has_pair(args, flag, value):
    return any(a == flag and b == value for a, b in zip(args, args[1:])) or (flag + value) in args


def links(args):
    return bool(args) and not any(a in NO_LINK for a in args)
