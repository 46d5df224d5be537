# lit configuration for pygraph's compiler tests: .cu files compiled by clang
# with the plugin, .ll files run through `opt -passes=pygraph`.
import os

import lit.formats
from lit.llvm import llvm_config
from lit.llvm.subst import ToolSubst

config.name = "pygraph"
config.test_format = lit.formats.ShTest(not llvm_config.use_lit_shell)
config.suffixes = [".cu", ".ll", ".cpp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pygraph_obj_root, "test", "lit")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

# FileCheck, `| count`, `| not`, %python; LLVM's tools (a leading `not`,
# llvm-nm, ...) first in PATH.
llvm_config.use_default_substitutions()
llvm_config.with_environment("PATH", config.llvm_tools_dir, append_path=True)
llvm_config.add_tool_substitutions(
    [ToolSubst("opt", unresolved="fatal"), ToolSubst("%clangxx", command=config.clangxx)],
    [config.llvm_tools_dir])

# %cuda: a CUDA compile for sm_90 with the toolkit under test.
cuda = ("%s -x cuda --cuda-path=%s --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version -std=c++17"
        % (config.clangxx, config.cuda_path))
# A host compile that still registers kernels (as a full build does) without
# building the device side: any file stands in for the GPU binary.
host = "%s --cuda-host-only -Xclang -fcuda-include-gpubinary -Xclang %s" % (
    cuda, os.path.join(config.test_source_root, "Inputs", "fake-gpubinary.bin"))
config.substitutions.append(("%cuda_host", host))
config.substitutions.append(("%cuda_device", cuda + " --cuda-device-only"))
config.substitutions.append(("%cuda", cuda))
config.substitutions.append(("%plugin", config.pygraph_plugin))
# clang's remark flags, and opt's for the .ll tests.
config.substitutions.append(("%remarks",
    "-Rpass=pygraph -Rpass-missed=pygraph -Rpass-analysis=pygraph"))
config.substitutions.append(("%opt_remarks",
    "-pass-remarks=pygraph -pass-remarks-missed=pygraph -pass-remarks-analysis=pygraph"))
