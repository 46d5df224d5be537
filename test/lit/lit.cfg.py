# lit configuration for pygraph's compiler tests.
import os
import lit.formats

config.name = "pygraph"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.pygraph_obj_root, "test", "lit")
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py.in"]

config.environment["PATH"] = os.pathsep.join(
    [config.llvm_tools_dir, config.environment.get("PATH", "")])

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
config.substitutions.append(("%remarks",
    "-Rpass=pygraph -Rpass-missed=pygraph -Rpass-analysis=pygraph"))
