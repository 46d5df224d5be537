"""pygraph-nvcc: nvcc's command line, built by clang with the pygraph plugin and runtime.

main(argv, script_dir) is the whole program: it expands response files,
handles the driver's own options (--pygraph-version, --pygraph-dry-run,
--help, --version, --list-gpu-arch/--list-gpu-code), parses the nvcc
options, plans the clang commands and runs them.  Errors are one line naming
the argument; the exit status is 1 for the driver's own errors, else the
failing command's.
"""
import shutil
import subprocess
import sys
import tempfile

from . import arch, execute, layout as layout_mod, messages, nvcc_args, nvcc_plan, responsefiles, version
from .errors import DriverError

PROG = "pygraph-nvcc"
HELP = """\
usage: pygraph-nvcc [nvcc options] files...

Builds what nvcc would build from the same command line, with clang++-22, the
pygraph plugin (launch-bound loops become CUDA graphs) and the pygraph runtime.
Use it where a Makefile or script runs nvcc:  make CC=pygraph-nvcc

What it adds to nvcc's behaviour:
  - one line per compile on stderr: graph regions, the launch sites in them,
    the launch sites left eager and the flag that shows why
    (-Xcompiler -Rpass-missed=pygraph); PYGRAPH_QUIET=1 turns it off
  - GPU architecture: -arch/-gencode/-code as given; below sm_75 (not in CUDA 13)
    becomes sm_75 with one warning; none given: the GPU nvidia-smi shows, else sm_90
    (PYGRAPH_CUDA_ARCH=sm_XX sets that default)
  - clang-vs-nvcc fixes: CUDA 13's include/cccl on the include path, -Wno-register,
    nvcc's host min()/max() overloads, __CUDACC_VER_MAJOR__/MINOR__, __nv_atomic
    loads/stores/fences, and spaced launch chevrons (`<< <`, `>> >(`) read as `<<<`, `>>>(` through a
    compiler overlay (your files are not changed)

Supported nvcc options, those accepted without effect, and those refused:
docs/user-guide.md, section "Building with Make and nvcc flags".

pygraph's own options:
  --pygraph-version    versions and the paths of the plugin, runtime, clang, CUDA
  --pygraph-dry-run    print the clang commands, run nothing (also nvcc's --dryrun)
  plugin options go through -Xcompiler: -Xcompiler -fplugin-arg-pygraph-min-launches=3

Environment: PYGRAPH_QUIET, PYGRAPH_CUDA_ARCH, PYGRAPH_CLANG (compiler),
PYGRAPH_CUDA_PATH (toolkit), PYGRAPH_BUILD (a pygraph build folder to use),
PYGRAPH_PLUGIN_ARGS="NAME[=VALUE] ..." (plugin options for an unchanged build:
each word becomes -fplugin-arg-pygraph-NAME[=VALUE] on every compile, after
the command's own; "disable" gives clang's own build, nothing of pygraph's:
  PYGRAPH_PLUGIN_ARGS=disable make CC=pygraph-nvcc
  PYGRAPH_PLUGIN_ARGS="min-launches=3 batch=0" make CC=pygraph-nvcc).
"""


def main(argv, script_dir):
    try:
        args = responsefiles.expand(argv)
        dry = "--pygraph-dry-run" in args
        args = [a for a in args if a != "--pygraph-dry-run"]
        lay = layout_mod.find(script_dir)
        if "--pygraph-version" in args:
            print(version.version_text(PROG, lay))
            return 0
        inv = nvcc_args.parse(args)
        if inv.action:
            return action(inv.action, lay)
        return build(inv, lay, dry or inv.dry_run)
    except (DriverError, layout_mod.LayoutError) as e:
        messages.error(PROG, str(e))
        return 1


def build(inv, lay, dry):
    for text in inv.notes:
        messages.note(PROG, text)
    tmpdir = tempfile.mkdtemp(prefix="pygraph-nvcc-")
    try:
        jobs, warnings = nvcc_plan.plan(inv, lay, tmpdir)
        for text in warnings:
            messages.warning(PROG, text)
        return execute.run(jobs, PROG, dry_run=dry, verbose=inv.verbose,
                           why="-Xcompiler -Rpass-missed=pygraph")
    finally:
        shutil.rmtree(tmpdir, ignore_errors=True)


def action(name, lay):
    if name == "help":
        print(HELP, end="")
    elif name == "version":
        print("%s: nvcc-compatible driver of pygraph %s, compiling with:" % (PROG, lay.version))
        sys.stdout.flush()
        return subprocess.call([lay.clang, "--version"])
    elif name == "list-gpu-arch":
        print("\n".join("compute_%d" % n for n in arch.CLANG_ARCHS))
    else:
        print("\n".join("sm_%d" % n for n in arch.CLANG_ARCHS))
    return 0
