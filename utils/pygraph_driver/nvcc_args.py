"""nvcc's command line, parsed into an Invocation (what to build, with which flags).

Contract: every nvcc option in OPTIONS is either translated to clang flags,
accepted as having no effect clang needs (listed in docs/user-guide.md, with
why), or an error naming it; an option nvcc does not know is an error too,
unless -forward-unknown-to-host-compiler passes it to clang.  Nothing is
dropped silently.  Long options take one or two leading dashes, values
follow after '=' or as the next word; -I -L -l -D -U -O also take them
attached (-I../include).
"""
import os
import re

from .errors import DriverError

SOURCE_KINDS = {".cu": "cu", ".c": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp",
                ".C": "cpp", ".i": "cpp", ".ii": "cpp"}
NOT_INPUTS = (".ptx", ".cubin", ".fatbin", ".h", ".hpp", ".cuh", ".gpu")
ATTACHED = ("I", "L", "l", "D", "U", "O")
X_LANGS = {"cu": "cu", "cuda": "cu", "c++": "cpp", "c": "c", "none": None}


class Input:
    """A file on the command line: kind is cu, cpp, c (compiled) or link (passed to the linker)."""

    def __init__(self, path, kind):
        self.path = path
        self.kind = kind


class Invocation:
    """Everything parse() learned; the planner turns it into clang commands."""

    def __init__(self):
        self.mode = "link"            # link | compile | preprocess | deps | ptx
        self.action = None            # version | help | list-gpu-arch | list-gpu-code
        self.inputs = []              # Input, in command order
        self.link_seq = []            # Input objects and linker words, in command order
        self.output = None
        self.output_dir = None
        self.x_lang = None
        self.arch_tokens = []         # from -arch
        self.code_tokens = []         # from -code
        self.gencode_tokens = []      # from -gencode code=...
        self.flags = []               # every compile: -I -D -U -isystem -include -O -g -w ...
        self.cxx_flags = []           # C++ and CUDA compiles only (-std=c++NN)
        self.cuda_flags = []          # CUDA compiles only
        self.host_flags = []          # -Xcompiler words: every compile and the link
        self.dep_flags = []           # -MD -MMD -MF -MT -MP
        self.deps_kind = None         # -M or -MM without a compile
        self.device_debug = False
        self.rdc = False
        self.cudart = "static"
        self.shared = False
        self.verbose = False
        self.dry_run = False
        self.forward_unknown = False
        self.old_arch_warning = True
        self.notes = []


def parse(args):
    inv = Invocation()
    i = 0
    while i < len(args):
        i = parse_one(inv, args, i)
    for inp in inv.inputs:
        if inp.kind in ("cu", "cpp", "c") and inv.x_lang:
            inp.kind = inv.x_lang
    return inv


def parse_one(inv, args, i):
    """Handles args[i] (and its value); returns the index of the next word."""
    arg = args[i]
    if not arg.startswith("-") or arg == "-":
        add_input(inv, arg)
        return i + 1
    name, eq, value = arg.lstrip("-").partition("=")
    spec = OPTIONS.get(name)
    if spec is None and arg[:2] in tuple("-" + a for a in ATTACHED) and len(arg) > 2:
        OPTIONS[arg[1]][1](inv, arg[2:])
        return i + 1
    if spec is None:
        if inv.forward_unknown:
            inv.host_flags.append(arg)
            return i + 1
        raise DriverError("unknown nvcc option '%s' (see pygraph-nvcc --help)" % arg)
    takes_value, handler = spec
    if not takes_value:
        if eq:
            raise DriverError("nvcc option '-%s' takes no value ('%s')" % (name, arg))
        handler(inv, None)
        return i + 1
    if not eq:
        if i + 1 >= len(args):
            raise DriverError("nvcc option '%s' needs a value" % arg)
        value = args[i + 1]
        i += 1
    handler(inv, value)
    return i + 1


def add_input(inv, path):
    base, ext = os.path.splitext(path)
    if ext in NOT_INPUTS or (ext.lower() in NOT_INPUTS and ext not in SOURCE_KINDS):
        raise DriverError("input '%s': pygraph-nvcc compiles .cu/.cpp/.c sources and links "
                          "objects and libraries; %s files are not supported" % (path, ext))
    kind = SOURCE_KINDS.get(ext, "link")
    inp = Input(path, kind)
    inv.inputs.append(inp)
    inv.link_seq.append(inp)


def words(value):
    """The words of a comma (or blank) separated nvcc list value."""
    return [w for w in re.split(r"[,\s]+", value.strip().strip('"').strip("'")) if w]


# ---------------------------------------------------------------- handlers

def set_mode(mode):
    def handler(inv, _):
        inv.mode = mode
    return handler


def append(attr, *prefix):
    """Adds prefix + [value] (or just prefix for flags) to inv.<attr>."""
    def handler(inv, value):
        getattr(inv, attr).extend(list(prefix) + ([value] if value is not None else []))
    return handler


def joined(attr, flag):
    def handler(inv, value):
        getattr(inv, attr).append(flag + value)
    return handler


def no_effect(inv, _):
    """nvcc options clang needs nothing for (see the table in docs/user-guide.md)."""


def note(text):
    def handler(inv, value):
        inv.notes.append(text % {"value": value})
    return handler


def unsupported(why):
    def handler(inv, value):
        raise DriverError(why)
    return handler


def on_library(inv, value):
    inv.link_seq.append("-l" + value)


def on_library_path(inv, value):
    inv.link_seq.append("-L" + value)


def on_linker(inv, value):
    for w in value.split(","):
        if w:
            inv.link_seq.extend(["-Xlinker", w])


def on_compiler(inv, value):
    inv.host_flags.extend(w for w in re.split(r"[,\s]+", value.strip()) if w)


def on_ptxas(inv, value):
    for w in value.split(","):
        if w.strip():
            inv.cuda_flags.extend(["-Xcuda-ptxas", w.strip()])


def on_optimize(inv, value):
    inv.flags.append("-O" + (value or ""))


def on_std(inv, value):
    inv.cxx_flags.append("-std=" + value)


def on_x(inv, value):
    if value not in X_LANGS:
        raise DriverError("-x %s: pygraph-nvcc knows cu, c++, c and none" % value)
    inv.x_lang = X_LANGS[value]


def on_arch(inv, value):
    inv.arch_tokens.extend(words(value))


def on_code(inv, value):
    inv.code_tokens.extend(words(value))


def on_gencode(inv, value):
    """arch=compute_XX,code=sm_XX | code=[sm_XX,compute_XX] | code="sm_XX,compute_XX"."""
    m = re.fullmatch(r"""\s*arch=([\w]+)\s*,\s*code=["'\[]*([\w,\s]+?)["'\]]*\s*""", value)
    if not m:
        raise DriverError("cannot read -gencode '%s' (expected arch=compute_XX,code=sm_XX)" % value)
    inv.gencode_tokens.extend(words(m.group(2)))


def on_rdc(inv, value):
    if value not in ("true", "false"):
        raise DriverError("-rdc=%s: expected true or false" % value)
    inv.rdc = value == "true"


def on_device_c(inv, _):
    inv.rdc = True
    inv.mode = "compile"


def on_device_w(inv, _):
    inv.rdc = False
    inv.mode = "compile"


def on_deps(kind):
    def handler(inv, _):
        inv.deps_kind = kind
        inv.mode = "deps"
    return handler


def on_bool_flag(true_flags, false_flags, name):
    def handler(inv, value):
        if value not in ("true", "false"):
            raise DriverError("--%s=%s: expected true or false" % (name, value))
        inv.cuda_flags.extend(true_flags if value == "true" else false_flags)
    return handler


def on_device_debug(inv, _):
    inv.device_debug = True


def on_default_stream(inv, value):
    if value in ("legacy", "null"):
        return
    if value != "per-thread":
        raise DriverError("--default-stream %s: expected legacy, null or per-thread" % value)
    inv.flags.extend(["-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"])
    inv.cuda_flags.extend(["-Xclang", "-fgpu-default-stream=per-thread"])


def on_cudart(inv, value):
    if value not in ("static", "shared", "none"):
        raise DriverError("--cudart %s: expected static, shared or none" % value)
    inv.cudart = value


def on_machine(inv, value):
    if value != "64":
        raise DriverError("--machine %s: only 64-bit code is built" % value)


def on_werror(inv, value):
    for w in words(value):
        if w == "all-warnings":
            inv.flags.append("-Werror")
        elif w not in ("cross-execution-space-call", "reorder", "default-stream-launch",
                       "missing-launch-bounds", "ext-lambda-captures-this", "deprecated-declarations"):
            raise DriverError("-Werror %s: unknown nvcc warning kind" % w)


def on_cudafe(inv, value):
    for w in words(value):
        if not re.match(r"--?(diag_suppress|diag-suppress|display_error_number|diag_warning|"
                        r"diag_remark)\b", w):
            raise DriverError("-Xcudafe %s: only diagnostic options (--diag_suppress=...) "
                              "are accepted; clang has no cudafe" % w)


def on_quiet_old(inv, _):
    inv.old_arch_warning = False


def on_output_dir(inv, value):
    inv.output_dir = value


def on_action(action):
    def handler(inv, _):
        inv.action = action
    return handler


def on_flag(attr, attr_value):
    def handler(inv, _):
        setattr(inv, attr, attr_value)
    return handler


def on_shared(inv, _):
    inv.shared = True
    inv.link_seq.append("-shared")


def options():
    """bare option name -> (takes a value, handler).  Aliases share an entry."""
    table = {}

    def opt(names, takes_value, handler):
        for n in names.split():
            table[n] = (takes_value, handler)

    phase_and_file_options(opt)
    code_options(opt)
    other_options(opt)
    for names, why in UNSUPPORTED:
        opt(names, names.split()[0] in VALUED_UNSUPPORTED, unsupported(why))
    return table


def phase_and_file_options(opt):
    opt("c compile", False, set_mode("compile"))
    opt("E preprocess", False, set_mode("preprocess"))
    opt("ptx", False, set_mode("ptx"))
    opt("link", False, set_mode("link"))
    opt("M generate-dependencies", False, on_deps("-M"))
    opt("MM generate-nonsystem-dependencies", False, on_deps("-MM"))
    opt("MD generate-dependencies-with-compile", False, append("dep_flags", "-MD"))
    opt("MMD generate-nonsystem-dependencies-with-compile", False, append("dep_flags", "-MMD"))
    opt("MP generate-dependency-targets", False, append("dep_flags", "-MP"))
    opt("MF dependency-output", True, append("dep_flags", "-MF"))
    opt("MT dependency-target-name", True, append("dep_flags", "-MT"))
    opt("o output-file", True, lambda inv, v: setattr(inv, "output", v))
    opt("odir output-directory", True, on_output_dir)
    opt("x x-lang", True, on_x)
    opt("I include-path", True, joined("flags", "-I"))
    opt("isystem system-include", True, append("flags", "-isystem"))
    opt("include pre-include", True, append("flags", "-include"))
    opt("D define-macro", True, joined("flags", "-D"))
    opt("U undefine-macro", True, joined("flags", "-U"))
    opt("L library-path", True, on_library_path)
    opt("l library", True, on_library)
    opt("Xcompiler compiler-options", True, on_compiler)
    opt("Xlinker linker-options", True, on_linker)
    opt("shared", False, on_shared)
    opt("cudart", True, on_cudart)
    opt("cudadevrt", True, no_effect)
    opt("m machine", True, on_machine)
    opt("m64", False, no_effect)
    opt("keep save-temps", False, append("flags", "-save-temps=obj"))
    opt("forward-unknown-to-host-compiler forward-unknown-opts", False, on_flag("forward_unknown", True))


def code_options(opt):
    opt("std", True, on_std)
    opt("O optimize", True, on_optimize)
    opt("g debug", False, append("flags", "-g"))
    opt("G device-debug", False, on_device_debug)
    opt("lineinfo generate-line-info", False, append("cuda_flags", "-Xarch_device", "-gline-tables-only"))
    opt("arch gpu-architecture", True, on_arch)
    opt("code gpu-code", True, on_code)
    opt("gencode generate-code", True, on_gencode)
    opt("rdc relocatable-device-code", True, on_rdc)
    opt("dc device-c", False, on_device_c)
    opt("dw device-w", False, on_device_w)
    opt("Xptxas ptxas-options", True, on_ptxas)
    opt("maxrregcount", True, lambda inv, v: inv.cuda_flags.extend(["-Xcuda-ptxas", "--maxrregcount=" + v]))
    opt("use_fast_math use-fast-math", False, append("cuda_flags", "-fgpu-flush-denormals-to-zero",
                                                    "-fgpu-approx-transcendentals"))
    opt("ftz", True, on_bool_flag(["-fgpu-flush-denormals-to-zero"],
                                  ["-fno-gpu-flush-denormals-to-zero"], "ftz"))
    opt("fmad", True, on_bool_flag(["-Xarch_device", "-ffp-contract=fast"],
                                   ["-Xarch_device", "-ffp-contract=off"], "fmad"))
    opt("prec-div prec-sqrt", True, no_effect)
    opt("extended-lambda expt-extended-lambda expt-relaxed-constexpr", False, no_effect)
    opt("default-stream", True, on_default_stream)
    opt("ftemplate-depth", True, joined("cxx_flags", "-ftemplate-depth="))
    opt("ftemplate-backtrace-limit", True, joined("cxx_flags", "-ftemplate-backtrace-limit="))
    opt("allow-unsupported-compiler extra-device-vectorization restrict", False, no_effect)
    opt("t threads split-compile", True, no_effect)
    opt("res-usage resource-usage", False, append("cuda_flags", "-Xcuda-ptxas", "-v"))


def other_options(opt):
    opt("w disable-warnings", False, append("flags", "-w"))
    opt("Werror", True, on_werror)
    opt("Wno-deprecated-gpu-targets", False, on_quiet_old)
    opt("Wno-deprecated-declarations", False, append("flags", "-Wno-deprecated-declarations"))
    opt("Wreorder", False, append("cxx_flags", "-Wreorder"))
    opt("Wdefault-stream-launch Wmissing-launch-bounds Wext-lambda-captures-this", False, no_effect)
    opt("Xcudafe", True, on_cudafe)
    opt("Xfatbin fatbin-options", True, no_effect)
    opt("ccbin compiler-bindir", True, note("-ccbin %(value)s ignored: clang compiles the host code"))
    opt("v verbose", False, on_flag("verbose", True))
    opt("dryrun", False, on_flag("dry_run", True))
    opt("version V", False, on_action("version"))
    opt("help h", False, on_action("help"))
    opt("list-gpu-arch", False, on_action("list-gpu-arch"))
    opt("list-gpu-code", False, on_action("list-gpu-code"))


UNSUPPORTED = (
    ("dlink device-link", "-dlink (a separate device link step) is not supported: link with "
     "pygraph-nvcc -rdc=true, which links the device code in the final link"),
    ("lib", "-lib is not supported: compile with -c and make the archive with ar"),
    ("run", "-run is not supported: run the program yourself"),
    ("cubin fatbin optix-ir cuda", "this output kind is not supported: pygraph-nvcc makes "
     "objects, programs, shared libraries, -ptx and preprocessed output"),
    ("Xnvlink nvlink-options", "-Xnvlink is not supported: clang links device code without nvlink "
     "options"),
    ("Xarchive archive-options", "-Xarchive is not supported (no -lib)"),
    ("keep-dir", "--keep-dir is not supported: -keep writes intermediate files next to the objects"),
    ("pg profile", "-pg is not supported for CUDA compiles"),
    ("dlto dlink-time-opt lto", "device link-time optimisation (-dlto) is not supported"),
    ("ewp extensible-whole-program", "-ewp is not supported"),
)
VALUED_UNSUPPORTED = ("Xnvlink", "Xarchive", "keep-dir")
OPTIONS = options()
