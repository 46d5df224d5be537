"""Where pygraph's files are: the plugin, the runtime, clang and the CUDA toolkit.

The entry scripts (pygraph-nvcc, pygraph-clang++) pass the folder they really
live in (symlinks resolved), so a symlink to them anywhere behaves as the
script itself.  Two layouts are recognised, in this order:

  PYGRAPH_BUILD set  that build tree (its pygraph-layout.json, else the default paths)
  installed          <prefix>/bin/<script> with <prefix>/share/pygraph/pygraph-layout.json,
                     whose paths are relative to <prefix> (written by cmake --install)
  source tree        <repo>/utils/<script> with <repo>/build (its pygraph-layout.json)

pygraph-layout.json holds: version, plugin, runtime_dir (libpygraph_rt.a),
shared_runtime_dir (libpygraph_rt.so), clang, cuda.  PYGRAPH_CLANG and
PYGRAPH_CUDA_PATH override clang and cuda.
"""
import json
import os

LAYOUT_FILE = "pygraph-layout.json"
CUDART_STATIC = ["-lcudart_static", "-ldl", "-lrt", "-lpthread"]
DEFAULTS = {"version": "unknown", "clang": "clang++-22", "cuda": "/usr/local/cuda"}


class LayoutError(Exception):
    """The plugin or the runtime is missing; the message says what to do."""


class Layout:
    """Resolved paths; `origin` says which layout they came from."""

    def __init__(self, values, origin):
        self.version = values["version"]
        self.plugin = values["plugin"]
        self.runtime_dir = values["runtime_dir"]
        self.shared_runtime_dir = values["shared_runtime_dir"]
        self.clang = os.environ.get("PYGRAPH_CLANG") or values["clang"]
        self.cuda = os.environ.get("PYGRAPH_CUDA_PATH") or values["cuda"]
        self.origin = origin

    def require_plugin(self):
        if not os.path.isfile(self.plugin):
            raise LayoutError("plugin not found: %s (%s); build pygraph first (cmake -S <repo> -B "
                              "build && cmake --build build), or point PYGRAPH_BUILD at a build "
                              "folder" % (self.plugin, self.origin))

    def require_runtime(self, shared):
        folder = self.shared_runtime_dir if shared else self.runtime_dir
        name = "libpygraph_rt.so" if shared else "libpygraph_rt.a"
        if not os.path.isfile(os.path.join(folder, name)):
            raise LayoutError("runtime not found: %s (%s)" % (os.path.join(folder, name), self.origin))
        return folder

    def runtime_link_flags(self, cudart):
        """Link flags for the pygraph runtime and the CUDA runtime: cudart static
        (nvcc's default), shared (with the shared pygraph runtime, found through
        an rpath) or none (the user links one).  Either runtime becomes part of
        the program only where its objects call it: the archive's members are
        taken by reference, the shared one is linked --as-needed, so a program
        compiled with the plugin disabled gets nothing of pygraph's."""
        lib64 = os.path.join(self.cuda, "lib64")
        if cudart == "shared":
            rt = self.require_runtime(shared=True)
            flags = ["-L" + rt, "-Wl,-rpath," + rt, "-Wl,--push-state,--as-needed", "-lpygraph_rt",
                     "-Wl,--pop-state", "-L" + lib64, "-lcudart"]
        else:
            flags = ["-L" + self.require_runtime(shared=False), "-lpygraph_rt", "-L" + lib64]
            flags += CUDART_STATIC if cudart == "static" else []
        return flags + ["-L" + os.path.join(lib64, "stubs")]

    def clang_c(self):
        """The C driver beside the C++ one (clang++-22 -> clang-22)."""
        folder, name = os.path.split(self.clang)
        return os.path.join(folder, name.replace("clang++", "clang")) if "clang++" in name else self.clang


def find(script_dir):
    build = os.environ.get("PYGRAPH_BUILD")
    if build:
        return from_build(os.path.abspath(build), "PYGRAPH_BUILD=" + build)
    prefix = os.path.dirname(script_dir)
    installed = os.path.join(prefix, "share", "pygraph", LAYOUT_FILE)
    if os.path.isfile(installed):
        values = read_json(installed)
        for key in ("plugin", "runtime_dir", "shared_runtime_dir"):
            values[key] = os.path.normpath(os.path.join(prefix, values[key]))
        return Layout(dict(DEFAULTS, **values), "installed in " + prefix)
    return from_build(os.path.join(prefix, "build"), "source tree " + prefix)


def from_build(build, origin):
    """A build tree: its layout file when configured by this version of the
    CMake files, else the paths every build tree has."""
    values = dict(DEFAULTS, plugin=os.path.join(build, "pass", "libpygraph.so"),
                  runtime_dir=os.path.join(build, "runtime"),
                  shared_runtime_dir=os.path.join(build, "runtime", "shared"))
    path = os.path.join(build, LAYOUT_FILE)
    if os.path.isfile(path):
        values.update(read_json(path))
    return Layout(values, origin + ", build " + build)


def read_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)
