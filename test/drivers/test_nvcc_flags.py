#!/usr/bin/env python3
"""pygraph-nvcc's translation of nvcc flags, checked on its dry run (no compile, no GPU)."""
import os
import unittest

from drivers_util import DriverTest, fake_gpu_bin


def flat(cmds):
    return [a for cmd in cmds for a in cmd]


def pairs(cmd, first):
    """Every argument following `first` in cmd."""
    return [b for a, b in zip(cmd, cmd[1:]) if a == first]


class HecbenchLine(DriverTest):
    def test_makefile_compile_line(self):
        # The line every HeCBench Makefile runs; `-arch=sm_60` stopped pygraph-clang++.
        cmds, err = self.dry("-std=c++17", "-Xcompiler", "-Wall", "-arch=sm_60", "-O3",
                             "-c", "main.cu", "-o", "main.o")
        self.assertEqual(len(cmds), 1)
        cmd = cmds[0]
        self.assertIn("--cuda-gpu-arch=sm_75", cmd)
        for flag in ("-std=c++17", "-Wall", "-O3", "-c", "-Wno-unknown-cuda-version", "-Wno-register"):
            self.assertIn(flag, cmd)
        self.assertTrue(any(a.startswith("-fplugin=") and a.endswith("libpygraph.so") for a in cmd))
        self.assertEqual(cmd[-4:], ["-x", "cuda", "main.cu", "-o", "main.o"][-4:])
        self.assertIn("CUDA 13 has no sm_60; building sm_75", err)
        self.assertEqual(err.count("warning:"), 1)

    def test_makefile_link_line_links_runtime(self):
        # nvcc links: the runtime must come with it (undefined __pygraph_region_end otherwise).
        cmds, _ = self.dry("-std=c++17", "-Xcompiler", "-Wall", "-arch=sm_90", "-O3", "main.o", "-o", "main")
        cmd = cmds[0]
        self.assertIn("-lpygraph_rt", cmd)
        self.assertIn("-lcudart_static", cmd)
        self.assertLess(cmd.index("main.o"), cmd.index("-lpygraph_rt"))
        self.assertEqual(pairs(cmd, "-o"), ["main"])


class Architectures(DriverTest):
    def arch_of(self, *args, **kw):
        cmds, err = self.dry(*(list(args) + ["-c", "k.cu"]), **kw)
        return [a.split("=", 1)[1] for a in cmds[0] if a.startswith("--cuda-gpu-arch=")], err

    def test_forms(self):
        cases = [
            (["-arch=sm_90"], ["sm_90"]),
            (["-arch", "sm_80"], ["sm_80"]),
            (["--gpu-architecture=compute_90"], ["sm_90"]),
            (["-arch=compute_80", "-code=sm_80,sm_90"], ["sm_80", "sm_90"]),
            (["-gencode", "arch=compute_90,code=[sm_90,compute_90]"], ["sm_90"]),
            (["-gencode=arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=\"sm_90,compute_90\""],
             ["sm_80", "sm_90"]),
            (["--generate-code=arch=compute_90a,code=[sm_90a]"], ["sm_90a"]),
            (["-arch=sm_100f"], ["sm_100"]),
        ]
        for args, want in cases:
            got, _ = self.arch_of(*args)
            self.assertEqual(got, want, args)

    def test_old_architecture_one_warning(self):
        got, err = self.arch_of("-gencode", "arch=compute_52,code=sm_52", "-arch=sm_60")
        self.assertEqual(got, ["sm_75"])
        self.assertEqual(err.count("warning:"), 1)
        self.assertIn("sm_52, sm_60", err)
        got, err = self.arch_of("-arch=sm_60", "-Wno-deprecated-gpu-targets")
        self.assertEqual((got, err.count("warning:")), (["sm_75"], 0))

    def test_arch_clang_cannot_build(self):
        got, err = self.arch_of("-arch=sm_110")
        self.assertEqual(got, ["sm_103"])
        self.assertIn("clang 22 cannot build sm_110", err)

    def test_default_from_gpu_else_sm90(self):
        self.assertEqual(self.arch_of()[0], ["sm_90"])
        gpu = fake_gpu_bin(os.path.join(self.tmp, "gpu86"), "8.6")
        env = self.env(PATH=gpu + os.pathsep + os.environ["PATH"])
        self.assertEqual(self.arch_of(env=env)[0], ["sm_86"])
        self.assertEqual(self.arch_of("-arch=native", env=env)[0], ["sm_86"])
        self.assertEqual(self.arch_of(env=self.env(PYGRAPH_CUDA_ARCH="sm_80"))[0], ["sm_80"])

    def test_unknown_architecture_is_an_error(self):
        rc, _, err = self.nvcc("-arch=kepler", "-c", "k.cu", check=False)
        self.assertEqual(rc, 1)
        self.assertIn("unknown GPU architecture 'kepler'", err)


class Translation(DriverTest):
    def test_lists_and_pass_through(self):
        cmds, err = self.dry(
            "-Xcompiler", "-fPIC,-Wextra", "-Xcompiler=-pthread", "-Xptxas", "-v,-O2",
            "--ptxas-options=-dlcm=cg", "-maxrregcount=32", "-Xlinker", "--as-needed,-z,now",
            "-I", "inc", "-Iinc2", "-isystem", "sys", "-isystem=sys2", "-DA=1", "-D", "B", "-UC",
            "-L", "libdir", "-lfoo", "-l", "bar", "-include", "pre.h", "--std", "c++20",
            "--use_fast_math", "--extended-lambda", "--expt-relaxed-constexpr", "-lineinfo",
            "--default-stream", "per-thread", "-w", "-O2", "-g",
            "k.cu", "-o", "app")
        compile_cmd, link = cmds
        for flag in ("-fPIC", "-Wextra", "-pthread", "-Iinc", "-Iinc2", "-DA=1", "-DB", "-UC",
                     "-std=c++20", "-w", "-O2", "-g", "-fgpu-flush-denormals-to-zero",
                     "-fgpu-approx-transcendentals", "-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1"):
            self.assertIn(flag, compile_cmd, flag)
        self.assertEqual(pairs(compile_cmd, "-Xcuda-ptxas"), ["-v", "-O2", "-dlcm=cg", "--maxrregcount=32"])
        self.assertEqual(pairs(compile_cmd, "-isystem")[:2], ["sys", "sys2"])
        self.assertEqual(pairs(compile_cmd, "-include")[-1], "pre.h")   # after the compat headers
        self.assertIn("-gline-tables-only", pairs(compile_cmd, "-Xarch_device"))
        self.assertIn("-fgpu-default-stream=per-thread", pairs(compile_cmd, "-Xclang"))
        self.assertEqual(pairs(link, "-Xlinker"), ["--as-needed", "-z", "now"])
        self.assertIn("-Llibdir", link)
        self.assertLess(link.index("-lfoo"), link.index("-lbar"))
        self.assertLess(link.index("-lbar"), link.index("-lpygraph_rt"))
        self.assertNotIn("-Iinc", link)

    def test_device_optimisation_as_nvcc(self):
        cmd = self.dry("-c", "k.cu")[0][0]
        self.assertEqual(pairs(cmd, "-Xarch_device")[-1], "-O3")   # host -O0, device -O3
        cmd = self.dry("-G", "-c", "k.cu")[0][0]
        self.assertIn("--cuda-noopt-device-debug", cmd)
        self.assertEqual(pairs(cmd, "-Xarch_device")[-1], "-O0")

    def test_rdc(self):
        cmd = self.dry("-rdc=true", "-c", "a.cu")[0][0]
        self.assertIn("-fgpu-rdc", cmd)
        cmd = self.dry("-dc", "a.cu")[0][0]
        self.assertIn("-fgpu-rdc", cmd)
        self.assertIn("-c", cmd)
        link = self.dry("--relocatable-device-code", "true", "a.o", "b.o", "-o", "app")[0][0]
        self.assertIn("--offload-link", link)

    def test_inputs_by_kind(self):
        cmds, _ = self.dry("-x", "cu", "a.cpp", "-c")
        self.assertEqual(cmds[0][-4:], ["cuda", "a.cpp", "-o", "a.o"])
        cmds, _ = self.dry("-std=c++17", "m.cu", "h.cpp", "c.c", "lib.a", "x.o", "-o", "app")
        kinds = [c[c.index("-x") + 1] for c in cmds[:3]]
        self.assertEqual(kinds, ["cuda", "c++", "c"])
        self.assertNotIn("-std=c++17", cmds[2])            # a C compile gets no C++ dialect
        self.assertTrue(os.path.basename(cmds[2][0]).startswith("clang-"))
        link = cmds[3]
        objs = [a for a in link if a.endswith((".o", ".a"))]
        self.assertEqual([os.path.basename(o) for o in objs], ["0-m.o", "1-h.o", "2-c.o", "lib.a", "x.o"])

    def test_dependency_flags(self):
        cmd = self.dry("-M", "k.cu")[0][0]
        self.assertIn("-M", cmd)
        self.assertIn("--cuda-host-only", cmd)
        self.assertFalse(any(a.startswith("-fplugin=") for a in cmd))
        cmd = self.dry("-MD", "-MF", "k.d", "-MT", "k.o", "-c", "k.cu", "-o", "k.o")[0][0]
        self.assertEqual(pairs(cmd, "-MF"), ["k.d"])
        self.assertEqual(pairs(cmd, "-MT"), ["k.o"])
        self.assertIn("-MD", cmd)

    def test_response_files(self):
        with open(os.path.join(self.tmp, "flags.rsp"), "w") as f:
            f.write('-arch=sm_80 -DNAME="a b" @more.rsp\n')
        with open(os.path.join(self.tmp, "more.rsp"), "w") as f:
            f.write("-O2\n")
        with open(os.path.join(self.tmp, "opts.txt"), "w") as f:
            f.write("-Xcompiler -Wall\n")
        cmd = self.dry("@flags.rsp", "--options-file", "opts.txt", "-c", "k.cu")[0][0]
        for flag in ("--cuda-gpu-arch=sm_80", "-DNAME=a b", "-O2", "-Wall"):
            self.assertIn(flag, cmd)

    def test_ccbin_noted_shared_linked(self):
        cmds, err = self.dry("-ccbin", "g++-12", "--shared", "-Xcompiler", "-fPIC", "k.cu", "-o", "libk.so")
        self.assertIn("note: -ccbin g++-12 ignored", err)
        self.assertIn("-shared", cmds[-1])


class Refusals(DriverTest):
    def test_unknown_flag_names_it(self):
        rc, out, err = self.nvcc("-frobnicate", "-c", "k.cu", check=False)
        self.assertEqual(rc, 1)
        self.assertIn("unknown nvcc option '-frobnicate'", err)

    def test_unknown_flag_forwarded_on_request(self):
        cmd = self.dry("-forward-unknown-to-host-compiler", "-frobnicate", "-c", "k.cu")[0][0]
        self.assertIn("-frobnicate", cmd)

    def test_unsupported_flags_name_themselves(self):
        for args, words in ((["-dlink", "a.o"], "-dlink"), (["-lib", "a.cu"], "-lib"),
                            (["-cubin", "a.cu"], "output kind"), (["-Xnvlink", "-v", "a.o"], "-Xnvlink"),
                            (["-Xcudafe", "--something", "a.cu"], "-Xcudafe --something"),
                            (["-c", "a.cu", "b.cu", "-o", "x.o"], "-o x.o")):
            rc, _, err = self.nvcc(*args, check=False)
            self.assertEqual(rc, 1, args)
            self.assertIn(words, err, args)

    def test_help_and_version(self):
        _, out, _ = self.nvcc("--help")
        self.assertIn("pygraph", out)
        self.assertIn("PYGRAPH_QUIET", out)
        _, out, _ = self.nvcc("--pygraph-version")
        self.assertIn("libpygraph.so", out)
        self.assertIn("default GPU architecture:  sm_90", out)


if __name__ == "__main__":
    unittest.main()
