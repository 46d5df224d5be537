#!/usr/bin/env python3
"""pygraph-nvcc compiling and linking small programs for real (clang, plugin, runtime; no GPU needed)."""
import os
import re
import shutil
import subprocess
import unittest

from drivers_util import INPUTS, NVCC, DriverTest, read

SUMMARY = ("pygraph: launches.cu: 1 graph region (2 launch sites); 1 launch site left eager "
           "(why: -Xcompiler -Rpass-missed=pygraph)")


class Compile(DriverTest):
    def test_compile_prints_summary_not_remarks(self):
        self.copy_input("launches.cu")
        _, _, err = self.nvcc("-arch=sm_90", "-O3", "-c", "launches.cu", "-o", "launches.o")
        self.assertEqual(err.strip(), SUMMARY)
        self.assertNotIn("remark", err)
        self.assertIn("U __pygraph_region_begin", self.symbols(os.path.join(self.tmp, "launches.o")))

    def test_quiet_turns_summary_off(self):
        self.copy_input("launches.cu")
        for value in ("1", "on", "yes"):
            _, _, err = self.nvcc("-arch=sm_90", "-c", "launches.cu", env=self.env(PYGRAPH_QUIET=value))
            self.assertEqual(err, "", value)

    def test_remarks_when_asked(self):
        self.copy_input("launches.cu")
        _, _, err = self.nvcc("-arch=sm_90", "-Xcompiler", "-Rpass-missed=pygraph", "-c", "launches.cu")
        self.assertIn("remark: launch of 'k(float*)' stays eager", err)
        self.assertIn(SUMMARY, err)

    def test_host_file_summary(self):
        self.copy_input("host.cpp")
        _, _, err = self.nvcc("-c", "host.cpp")
        self.assertEqual(err.strip(), "pygraph: host.cpp: no kernel launches")


class Link(DriverTest):
    def test_compile_and_link_links_runtime(self):
        self.copy_input("launches.cu")
        self.nvcc("-arch=sm_90", "-c", "launches.cu", "-o", "launches.o")
        self.nvcc("-arch=sm_90", "launches.o", "-o", "app")
        self.assertIn("T __pygraph_region_begin", self.symbols(os.path.join(self.tmp, "app")))

    def test_cu_cpp_c_program(self):
        for name in ("uses_parts.cu", "host.cpp", "plain.c"):
            self.copy_input(name)
        _, _, err = self.nvcc("-std=c++17", "uses_parts.cu", "host.cpp", "plain.c", "-o", "app")
        self.assertIn("pygraph: uses_parts.cu: 1 graph region (2 launch sites)", err)
        self.assertTrue(os.path.isfile(os.path.join(self.tmp, "app")))

    def test_relocatable_device_code(self):
        for name in ("rdc_a.cu", "rdc_b.cu"):
            self.copy_input(name)
        self.nvcc("-arch=sm_90", "-dc", "rdc_a.cu", "rdc_b.cu")
        self.nvcc("-arch=sm_90", "-rdc=true", "rdc_a.o", "rdc_b.o", "-o", "app")
        self.assertIn("T __pygraph_region_begin", self.symbols(os.path.join(self.tmp, "app")))

    def test_hecbench_style_makefile(self):
        # make CC=pygraph-nvcc, nothing else: the Makefile's -arch=sm_60, -Xcompiler -Wall, its link.
        shutil.copytree(os.path.join(INPUTS, "hecbench_style"), os.path.join(self.tmp, "app"))
        bindir = os.path.join(self.tmp, "bin")
        os.makedirs(bindir)
        os.symlink(NVCC, os.path.join(bindir, "pygraph-nvcc"))
        env = self.env(PATH=bindir + os.pathsep + self.env()["PATH"])
        _, out, err = self.run_tool(["make", "CC=pygraph-nvcc"], env=env, cwd=os.path.join(self.tmp, "app"))
        self.assertIn("pygraph: main.cu: 1 graph region (2 launch sites)", out + err)
        self.assertEqual((out + err).count("CUDA 13 has no sm_60"), 1)  # the compile; the link builds no GPU code
        self.assertIn("T __pygraph_region_begin", self.symbols(os.path.join(self.tmp, "app", "main")))


class NvccOnlySpellings(DriverTest):
    def test_spaced_chevrons_register_cccl(self):
        src = self.copy_input("spaced.cu")
        self.copy_input("spaced.cuh")
        before = read(src)
        plain = subprocess.run(["clang++-22", "-x", "cuda", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
                                "-std=c++17", "-c", src, "-o", os.devnull], capture_output=True, text=True)
        self.assertNotEqual(plain.returncode, 0, "clang alone should reject this file")
        _, _, err = self.nvcc("-std=c++17", "-arch=sm_90", "-c", "spaced.cu")
        self.assertIn("pygraph: spaced.cu: 1 graph region (2 launch sites)", err)
        self.assertEqual(read(src), before)            # the user's file is not edited
        _, out, _ = self.nvcc("-std=c++17", "-E", "spaced.cu")
        self.assertIn('"spaced.cu"', out)                        # __FILE__ is the user's name
        self.assertIn("return 13;", out)                         # __LINE__ unchanged
        self.assertRegex(out, r"kh<<<1, 1>>>\(p\)")


    def test_host_min_max(self):
        src = self.copy_input("host_minmax.cu")
        plain = subprocess.run(["clang++-22", "-x", "cuda", "--cuda-gpu-arch=sm_90", "-Wno-unknown-cuda-version",
                                "-c", src, "-o", os.devnull], capture_output=True, text=True)
        self.assertIn("no matching function for call to 'max'", plain.stderr)
        self.nvcc("-arch=sm_90", "host_minmax.cu", "-o", "minmax")
        _, out, _ = self.run_tool([os.path.join(self.tmp, "minmax")])   # host code only: no GPU needed
        self.assertEqual(out, "4294967295 5 1.5 2.5 4 -3\n")


    def test_nv_atomic_loads_stores(self):
        self.copy_input("nv_atomics.cu")
        self.nvcc("-arch=sm_90", "-ptx", "nv_atomics.cu")
        ptx = read(os.path.join(self.tmp, "nv_atomics.ptx"))
        # the scope asked or a wider one: relaxed and acquire loads, release store, seq_cst fence
        for insn in (r"ld\.relaxed\.sys", r"ld\.acquire\.(cta|gpu|sys)", r"st\.release\.(gpu|sys)",
                     r"fence\.sc\.sys"):
            self.assertRegex(ptx, insn)

    def test_nvcc_version_macros(self):
        # Code choosing __shfl_down_sync by `#if __CUDACC_VER_MAJOR__ >= 9` took the legacy path.
        with open(os.path.join(self.tmp, "ver.cu"), "w") as f:
            f.write("#if __CUDACC__\ncudacc __CUDACC__\n#endif\n"
                    "nvcc_major __CUDACC_VER_MAJOR__ minor __CUDACC_VER_MINOR__ nvcc_itself __NVCC__\n")
        _, out, _ = self.nvcc("-E", "ver.cu")
        self.assertIn("cudacc 1\n", out)   # `#if __CUDACC__` was an error: clang defines it empty
        self.assertRegex(out, r"nvcc_major 1[3-9] minor \d+ nvcc_itself __NVCC__")


class Dependencies(DriverTest):
    def test_M_to_stdout(self):
        self.copy_input("spaced.cu")
        self.copy_input("spaced.cuh")
        _, out, _ = self.nvcc("-std=c++17", "-M", "spaced.cu")
        self.assertTrue(out.startswith("spaced.o: spaced.cu"), out[:200])
        self.assertIn("spaced.cuh", out)
        self.assertIn("cuda_runtime.h", out)
        _, out, _ = self.nvcc("-std=c++17", "-MM", "spaced.cu")
        self.assertIn("spaced.cuh", out)
        self.assertNotIn("cuda_runtime.h", out)

    def test_MD_MF_with_compile(self):
        self.copy_input("spaced.cu")
        self.copy_input("spaced.cuh")
        os.makedirs(os.path.join(self.tmp, "deps"))
        self.nvcc("-std=c++17", "-MD", "-MF", "deps/s.d", "-MT", "obj/s.o", "-c", "spaced.cu", "-o", "s.o")
        text = read(os.path.join(self.tmp, "deps", "s.d"))
        self.assertTrue(text.startswith("obj/s.o: spaced.cu"), text[:200])
        self.assertTrue(re.search(r"\sspaced\.cuh", text))
        self.assertTrue(os.path.isfile(os.path.join(self.tmp, "s.o")))


if __name__ == "__main__":
    unittest.main()
