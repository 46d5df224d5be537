#!/usr/bin/env python3
"""The drivers as a user meets them: installed (cmake --install), symlinked into another bin
folder, and pygraph-clang++ without a GPU architecture (no GPU needed)."""
import os
import subprocess
import unittest

from drivers_util import BUILD, CLANGXX, NVCC, DriverTest

INSTALLED = {}


def installed_prefix(tmp_root):
    """One cmake --install of the build under test for the whole module."""
    if "prefix" not in INSTALLED:
        prefix = os.path.join(tmp_root, "prefix")
        subprocess.run(["cmake", "--install", BUILD, "--prefix", prefix], check=True,
                       capture_output=True)
        INSTALLED["prefix"] = prefix
    return INSTALLED["prefix"]


def setUpModule():
    import tempfile
    INSTALLED["root"] = tempfile.mkdtemp(prefix="pg-driver-install-")


def tearDownModule():
    import shutil
    shutil.rmtree(INSTALLED["root"], ignore_errors=True)


class Installed(DriverTest):
    def user_env(self, bindir):
        env = self.env(PATH=bindir + os.pathsep + self.env()["PATH"])
        env.pop("PYGRAPH_BUILD")      # nothing points at the build tree
        return env

    def linked_bin(self, prefix, name):
        bindir = os.path.join(self.tmp, "mybin")
        os.makedirs(bindir, exist_ok=True)
        os.symlink(os.path.join(prefix, "bin", name), os.path.join(bindir, name))
        return bindir

    def test_symlinked_installed_nvcc_uses_installed_files(self):
        prefix = installed_prefix(INSTALLED["root"])
        bindir = self.linked_bin(prefix, "pygraph-nvcc")
        env = self.user_env(bindir)
        _, out, _ = self.run_tool(["pygraph-nvcc", "--pygraph-version"], env=env)
        self.assertIn(os.path.join(prefix, "lib"), out)
        self.assertIn("installed in " + prefix, out)
        self.copy_input("launches.cu")
        _, _, err = self.run_tool(["pygraph-nvcc", "-arch=sm_90", "launches.cu", "-o", "app"], env=env)
        self.assertIn("pygraph: launches.cu: 1 graph region", err)
        self.assertIn("T __pygraph_region_begin", self.symbols(os.path.join(self.tmp, "app")))

    def test_symlinked_installed_clangxx(self):
        prefix = installed_prefix(INSTALLED["root"])
        bindir = self.linked_bin(prefix, "pygraph-clang++")
        self.copy_input("launches.cu")
        _, _, err = self.run_tool(["pygraph-clang++", "-O2", "launches.cu", "-o", "app"],
                                  env=self.user_env(bindir))
        self.assertIn("pygraph: launches.cu: 1 graph region (2 launch sites)", err)
        self.assertIn("T __pygraph_region_begin", self.symbols(os.path.join(self.tmp, "app")))

    def test_symlinked_source_tree_driver(self):
        bindir = os.path.join(self.tmp, "mybin")
        os.makedirs(bindir)
        os.symlink(NVCC, os.path.join(bindir, "pygraph-nvcc"))
        env = self.env(PATH=bindir + os.pathsep + self.env()["PATH"])
        _, out, _ = self.run_tool(["pygraph-nvcc", "--pygraph-version"], env=env)
        self.assertIn(os.path.join(BUILD, "pass"), out)


class ClangWrapper(DriverTest):
    def test_no_arch_given_builds_default(self):
        # Without --cuda-gpu-arch, CUDA 13's ptxas rejected clang's sm_52 with a crash dump.
        self.copy_input("launches.cu")
        rc, out, err = self.run_tool([CLANGXX, "-x", "cuda", "-O2", "-c", "launches.cu"], check=False)
        self.assertEqual(rc, 0, err)
        self.assertNotIn("PLEASE ATTACH", err)
        self.assertIn("pygraph: launches.cu: 1 graph region (2 launch sites); 1 launch site left eager "
                      "(why: -Rpass-missed=pygraph)", err)
        _, out, _ = self.run_tool([CLANGXX, "--pygraph-dry-run", "-c", "launches.cu"])
        self.assertIn("--cuda-gpu-arch=sm_90", out)
        self.assertIn("-Wno-unknown-cuda-version", out)

    def test_old_arch_raised(self):
        self.copy_input("launches.cu")
        rc, _, err = self.run_tool([CLANGXX, "--cuda-gpu-arch=sm_52", "-c", "launches.cu"], check=False)
        self.assertEqual(rc, 0, err)
        self.assertIn("CUDA 13 has no sm_52; building sm_75", err)

    def test_several_sources_summary_each(self):
        self.copy_input("launches.cu")
        with open(os.path.join(self.tmp, "host.cpp"), "w") as f:
            f.write("int host_part() { return 1; }\n")
        with open(os.path.join(self.tmp, "host.opt.yaml"), "w"):
            pass   # the user's own file: never overwritten, so no summary this time
        _, _, err = self.run_tool([CLANGXX, "-c", "launches.cu", "host.cpp"])
        self.assertIn("no summary line", err)
        os.remove(os.path.join(self.tmp, "host.opt.yaml"))
        _, _, err = self.run_tool([CLANGXX, "-c", "launches.cu", "host.cpp"])
        self.assertIn("pygraph: launches.cu: 1 graph region", err)
        self.assertIn("pygraph: host.cpp: no kernel launches", err)
        self.assertEqual([f for f in os.listdir(self.tmp) if f.endswith(".opt.yaml")], [])

    def test_help_and_version_say_what_pygraph_adds(self):
        _, out, _ = self.run_tool([CLANGXX, "--help"])
        self.assertTrue(out.startswith("pygraph-clang++: clang++ with the pygraph plugin"))
        self.assertIn("OVERVIEW: clang LLVM compiler", out)
        _, out, _ = self.run_tool([CLANGXX, "--pygraph-version"])
        self.assertIn("libpygraph.so", out)


if __name__ == "__main__":
    unittest.main()
