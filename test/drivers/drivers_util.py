"""Shared helpers of the driver tests: where the drivers, the build and llvm-nm are; running a driver.

Environment (set by test/drivers/CMakeLists.txt): PG_TEST_SOURCE (the
repository), PG_TEST_BUILD (its build folder), PG_TEST_NM (llvm-nm).
"""
import os
import shutil
import subprocess
import tempfile
import unittest

SOURCE = os.environ.get("PG_TEST_SOURCE", os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
BUILD = os.environ.get("PG_TEST_BUILD", os.path.join(SOURCE, "build"))
NM = os.environ.get("PG_TEST_NM", "llvm-nm-22")
INPUTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "Inputs")
NVCC = os.path.join(SOURCE, "utils", "pygraph-nvcc")
CLANGXX = os.path.join(SOURCE, "utils", "pygraph-clang++")


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def fake_gpu_bin(folder, compute_cap):
    """A folder with an nvidia-smi that reports one GPU of compute_cap ("8.6"),
    or none when compute_cap is None (so tests do not depend on this machine)."""
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, "nvidia-smi")
    with open(path, "w") as f:
        f.write("#!/bin/sh\n" + ("echo %s\n" % compute_cap if compute_cap else "exit 9\n"))
    os.chmod(path, 0o755)
    return folder


class DriverTest(unittest.TestCase):
    """Each test gets a scratch folder (self.tmp) and runs drivers with a
    machine that has no GPU unless it says otherwise."""

    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="pg-driver-test-")
        self.gpu_bin = fake_gpu_bin(os.path.join(self.tmp, "fakebin"), None)

    def tearDown(self):
        shutil.rmtree(self.tmp, ignore_errors=True)

    def env(self, **extra):
        env = dict(os.environ)
        for key in ("PYGRAPH_QUIET", "PYGRAPH_CUDA_ARCH", "PYGRAPH_CLANG", "PYGRAPH_CUDA_PATH"):
            env.pop(key, None)
        env["PYGRAPH_BUILD"] = BUILD
        env["PATH"] = self.gpu_bin + os.pathsep + env.get("PATH", "")
        env.update(extra)
        return env

    def run_tool(self, argv, env=None, cwd=None, check=True):
        """(exit status, stdout, stderr); check: fail the test on a non-zero status."""
        p = subprocess.run(argv, capture_output=True, text=True, cwd=cwd or self.tmp,
                           env=env or self.env(), timeout=600)
        if check and p.returncode != 0:
            self.fail("%s failed (%d):\n%s\n%s" % (" ".join(argv), p.returncode, p.stdout, p.stderr))
        return p.returncode, p.stdout, p.stderr

    def nvcc(self, *args, **kw):
        return self.run_tool([NVCC] + list(args), **kw)

    def dry(self, *args, **kw):
        """The clang commands pygraph-nvcc would run: a list of argument lists."""
        _, out, err = self.nvcc("--pygraph-dry-run", *args, **kw)
        import shlex
        return [shlex.split(line) for line in out.splitlines() if line.strip()], err

    def copy_input(self, name, dest=None):
        target = os.path.join(self.tmp, dest or name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copy(os.path.join(INPUTS, name), target)
        return target

    def symbols(self, path):
        return subprocess.run([NM, path], capture_output=True, text=True, check=True).stdout
