#!/usr/bin/env python3
"""PYGRAPH_PLUGIN_ARGS through both drivers: plugin options for an unchanged build, and
`disable` giving exactly clang's own build (same object, same program; no GPU needed)."""
import filecmp
import os
import shlex
import shutil
import subprocess
import unittest

from drivers_util import BUILD, CLANGXX, DriverTest

PLUGIN_FLAG = "-fplugin"   # -fplugin=... and -fplugin-arg-pygraph-...
RUNTIME_FLAGS = ("-lpygraph_rt", "-Wl,--push-state,--as-needed", "-Wl,--pop-state")


class NvccPluginArgs(DriverTest):
    def test_words_become_plugin_flags_after_the_commands_own(self):
        env = self.env(PYGRAPH_PLUGIN_ARGS="min-launches=3  'allow=f(unsigned int)' batch=0")
        cmds, _ = self.dry("-Xcompiler", "-fplugin-arg-pygraph-min-launches=2", "-c", "k.cu", env=env)
        got = [a for a in cmds[0] if a.startswith("-fplugin-arg-pygraph-")]
        self.assertEqual(got, ["-fplugin-arg-pygraph-min-launches=2", "-fplugin-arg-pygraph-min-launches=3",
                               "-fplugin-arg-pygraph-allow=f(unsigned int)", "-fplugin-arg-pygraph-batch=0"])
        cmds, _ = self.dry("-M", "k.cu", env=env)          # no plugin loaded, no plugin flags
        self.assertFalse([a for a in cmds[0] if a.startswith(PLUGIN_FLAG)])

    def test_options_reach_the_plugin(self):
        self.copy_input("launches.cu")
        env = self.env(PYGRAPH_PLUGIN_ARGS="min-launches=3 batch=0")
        _, _, err = self.nvcc("-arch=sm_90", "-Xcompiler", "-fplugin-arg-pygraph-min-launches=2",
                              "-c", "launches.cu", env=env)
        self.assertEqual(err.strip(), "pygraph: launches.cu: 0 graph regions (0 launch sites); 3 launch "
                         "sites left eager (why: -Xcompiler -Rpass-missed=pygraph)")

    def test_bad_words_are_errors(self):
        for value, words in (("-fplugin-arg-pygraph-disable", "'-fplugin-arg-pygraph-disable' is not"),
                             ("=3", "'=3' is not"), ("'disable", "PYGRAPH_PLUGIN_ARGS='disable")):
            rc, _, err = self.nvcc("-c", "k.cu", env=self.env(PYGRAPH_PLUGIN_ARGS=value), check=False)
            self.assertEqual(rc, 1, value)
            self.assertIn("pygraph-nvcc: error: PYGRAPH_PLUGIN_ARGS", err, value)
            self.assertIn(words, err, value)
        self.copy_input("launches.cu")
        rc, _, err = self.nvcc("-c", "launches.cu", env=self.env(PYGRAPH_PLUGIN_ARGS="bogus"), check=False)
        self.assertNotEqual(rc, 0)
        self.assertIn("unknown option 'bogus'", err)      # the plugin's own check

    def test_disable_builds_clangs_own_object_and_program(self):
        self.copy_input("launches.cu")
        env = self.env(PYGRAPH_PLUGIN_ARGS="disable")
        args = ["-arch=sm_90", "-O3", "-c", "launches.cu", "-o", "off.o"]
        _, _, err = self.nvcc(*args, env=env)
        self.assertEqual(err.strip(), "pygraph: launches.cu: plugin disabled (PYGRAPH_PLUGIN_ARGS=disable)")
        self.assertNotIn("pygraph", self.symbols(os.path.join(self.tmp, "off.o")))
        # the same command without the plugin: the same object
        cmds, _ = self.dry(*args, env=env)
        self.assertFalse([a for a in cmds[0] if "optimization-record" in a])
        self.run_tool(without(cmds[0], PLUGIN_FLAG, "off.o", "clang.o"))
        self.assertTrue(filecmp.cmp(os.path.join(self.tmp, "off.o"), os.path.join(self.tmp, "clang.o"),
                                    shallow=False))
        # the runtime is linked, but nothing of it is taken: the program clang links without it
        self.nvcc("-arch=sm_90", "off.o", "-o", "off", env=env)
        cmds, _ = self.dry("-arch=sm_90", "off.o", "-o", "off", env=env)
        runtime = ("-L" + os.path.join(BUILD, "runtime"),) + RUNTIME_FLAGS
        self.run_tool(without([a for a in cmds[0] if a not in runtime], PLUGIN_FLAG, "off", "clang"))
        self.assertTrue(filecmp.cmp(os.path.join(self.tmp, "off"), os.path.join(self.tmp, "clang"),
                                    shallow=False))

    @unittest.skipUnless(shutil.which("readelf"), "needs readelf")
    def test_disable_with_shared_cudart_needs_no_pygraph_library(self):
        self.copy_input("launches.cu")
        self.nvcc("-arch=sm_90", "-cudart", "shared", "launches.cu", "-o", "on")
        self.nvcc("-arch=sm_90", "-cudart", "shared", "launches.cu", "-o", "off",
                  env=self.env(PYGRAPH_PLUGIN_ARGS="disable"))
        self.assertIn("libpygraph_rt.so", needed(os.path.join(self.tmp, "on")))
        self.assertNotIn("libpygraph_rt.so", needed(os.path.join(self.tmp, "off")))
        self.assertIn("libcudart.so", needed(os.path.join(self.tmp, "off")))


class ClangxxPluginArgs(DriverTest):
    def test_disable(self):
        self.copy_input("launches.cu")
        env = self.env(PYGRAPH_PLUGIN_ARGS="disable")
        _, _, err = self.run_tool([CLANGXX, "-x", "cuda", "-O2", "launches.cu", "-o", "app"], env=env)
        self.assertEqual(err.strip(), "pygraph: launches.cu: plugin disabled (PYGRAPH_PLUGIN_ARGS=disable)")
        self.assertNotIn("pygraph", self.symbols(os.path.join(self.tmp, "app")))
        _, out, _ = self.run_tool([CLANGXX, "--pygraph-dry-run", "-x", "cuda", "-O2", "launches.cu", "-o",
                                   "app"], env=env)
        self.assertFalse([a for a in shlex.split(out) if "optimization-record" in a])

    def test_options_reach_the_plugin(self):
        self.copy_input("launches.cu")
        env = self.env(PYGRAPH_PLUGIN_ARGS="min-launches=3 batch=0")
        _, _, err = self.run_tool([CLANGXX, "-x", "cuda", "-O2", "-c", "launches.cu"], env=env)
        self.assertIn("pygraph: launches.cu: 0 graph regions (0 launch sites); 3 launch sites left eager",
                      err)

    def test_help_names_it(self):
        _, out, _ = self.run_tool([CLANGXX, "--help"])
        self.assertIn("PYGRAPH_PLUGIN_ARGS", out)


def without(cmd, prefix, old_out, new_out):
    """cmd without the arguments starting with prefix, writing new_out instead of old_out."""
    return [new_out if a == old_out else a for a in cmd if not a.startswith(prefix)]


def needed(path):
    out = subprocess.run(["readelf", "-d", path], capture_output=True, text=True, check=True).stdout
    return " ".join(line for line in out.splitlines() if "(NEEDED)" in line)


if __name__ == "__main__":
    unittest.main()
