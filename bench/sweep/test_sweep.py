#!/usr/bin/env python3
"""Unit tests of the sweep's remark parsing and failure classification
(`python3 bench/sweep/test_sweep.py`); the texts are the plugin's own (test/lit)."""
import os
import sys
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run_sweep  # noqa: E402
import sweep_summary as ss  # noqa: E402

TAIL = " before the next barrier; a graph region needs at least 2 (min-launches)"


class EagerReasons(unittest.TestCase):
    def reason(self, origin, n=1):
        sites = "site" if n == 1 else "sites"
        return ss.eager_reason("launch of 'k(float*)' stays eager: only %d launch %s %s%s"
                               % (n, sites, origin, TAIL))

    def test_loop_start(self):
        self.assertEqual(self.reason("at the start of the loop iteration"),
                         ("alone at the start of a loop iteration", "-", 1))

    def test_not_batchable_suffix(self):
        why = ss.eager_reason("launch of 'k(float*)' stays eager: only 1 launch site at the start "
                              "of the loop iteration" + TAIL + "; loop not batchable: stores to "
                              "memory a kernel may read (store to 'g')")
        self.assertEqual(why, ("alone at the start of a loop iteration", "-", 1))

    def test_cuda_api_barrier(self):
        self.assertEqual(self.reason("after cudaMemcpy synchronizes at lulesh.cu:2621", 2),
                         ("after CUDA API: synchronizes", "cudaMemcpy", 2))
        # a synchronous copy names the kind that keeps it a barrier
        self.assertEqual(self.reason("after cudaMemcpy synchronizes (a device-to-host copy) "
                                     "at main.cu:40", 1),
                         ("after CUDA API: synchronizes (a device-to-host copy)", "cudaMemcpy",
                          1))

    def test_user_function_names_innermost_call(self):
        origin = ("after call of 'outer(float*)' at a.cu:3, which may synchronize (call of "
                  "'inner()' at b.cu:1, which may synchronize (cudaFree frees (and "
                  "synchronizes) at c.cu:9))")
        self.assertEqual(self.reason(origin),
                         ("after " + ss.USER_FN + " (CUDA API: frees (and synchronizes))",
                          "cudaFree", 1))

    def test_external_and_indirect(self):
        self.assertEqual(self.reason("after call of external function 'opaque(float*)' with "
                                     "unknown effect at x.cu:7")[:2],
                         ("after external function with unknown effect", "opaque(float*)"))
        self.assertEqual(self.reason("after indirect call at <unknown location>")[:2],
                         ("after indirect call", "<indirect call>"))

    def test_external_with_allow_hint_and_keyword(self):
        msg = ("launch of 'k(float*)' stays eager: only 1 launch site after external call "
               "'opaque(float*)' at x.cu:7, which may synchronize (if it does not, add "
               "-fplugin-arg-pygraph-allow=opaque)" + TAIL + " [external-call]")
        self.assertEqual(ss.eager_reason(msg),
                         ("after external function with unknown effect", "opaque(float*)", 1))
        inner = ("after call of 'outer(float*)' at a.cu:3, which may synchronize (external call "
                 "'timer(int)' at b.cu:1, which may synchronize (if it does not, add "
                 "-fplugin-arg-pygraph-allow=timer))")
        self.assertEqual(self.reason(inner)[:2],
                         ("after " + ss.USER_FN + " (external function with unknown effect)",
                          "timer(int)"))

    def test_next_barrier_named(self):
        msg = ("launch of 'k(float*)' stays eager: only 1 launch site at the start of the loop "
               "iteration before the next barrier (cudaMemcpy synchronizes at x.cu:9); a graph "
               "region needs at least 2 (min-launches); loop not batchable: stores to memory a "
               "kernel may read (store to 'g') [cuda-sync]")
        self.assertEqual(ss.eager_reason(msg), ("alone at the start of a loop iteration", "-", 1))

    def test_keyword_left_out_of_other_reasons(self):
        msg = ("launch of 'k(float*)' stays eager: inside the program's own stream capture "
               "(begun at x.cu:3) [own-capture]")
        self.assertEqual(ss.eager_reason(msg),
                         ("inside the program's own stream capture (begun at x.cu:3)", "-", None))

    def test_host_wait(self):
        origin = ("after volatile load deciding a loop exit (the host may wait for a kernel) "
                  "at h.cu:4")
        self.assertEqual(self.reason(origin)[:2],
                         ("after volatile/atomic read deciding a loop exit", "volatile load"))

    def test_other_reason_kept_whole(self):
        msg = "launch of 'k(float*)' stays eager: launch outside loops stays eager (straight-line=0)"
        self.assertEqual(ss.eager_reason(msg),
                         ("launch outside loops stays eager (straight-line=0)", "-", None))


class Remarks(unittest.TestCase):
    def test_kinds(self):
        text = "\n".join([
            "m.cu:12:3: remark: launch of 'axpy(float*, float const*, float, int)' grid=(4,1,1) "
            "block=(256,1,1) shmem=0 stream=default [-Rpass-analysis=pygraph]",
            "m.cu:12:3: remark: formed graph region in 'f(float*, int)': loop iteration "
            "(lines 10-13), segment 0 of 1, 2 launch sites [-Rpass=pygraph]",
            "m.cu:20:5: remark: launch of 'k(float*)' stays eager: only 1 launch site at the "
            "start of the loop iteration" + TAIL + " [-Rpass-missed=pygraph]",
            "m.cu:30:3: remark: loop (lines 30-40) not a whole-loop candidate: the iteration "
            "contains a loop (lines 32-34) [-Rpass-missed=pygraph]",
            "m.cu:21:5: remark: cudaMemcpy inside a loop synchronizes (synchronizing) "
            "[-Rpass-analysis=pygraph]",
            "m.cu:1:1: remark: device kernel 'k(float*)': 1 parameters, 8 bytes "
            "[-Rpass-analysis=pygraph]",
            "m.cu:5:1: remark: some other pass [-Rpass=inline]",
        ])
        r = run_sweep.parse_remarks(text)
        self.assertEqual(r["site"], ["m.cu:12:3"])
        self.assertEqual(len(r["region"]), 1)
        self.assertEqual(ss.REGION.search(r["region"][0]["msg"]).group(2), "2")
        self.assertEqual([e["loc"] for e in r["eager"]], ["m.cu:20:5"])
        self.assertEqual(r["sync_in_loop"], 1)

    def test_region_launch_counts(self):
        for msg, n in [
                ("formed graph region in 'f(float*, int)': loop iteration (lines 10-13), "
                 "2 launch sites", "2"),
                ("formed graph region in 'f(float*, int)': loop iteration (lines 10-30), part 2 "
                 "of 3 (after cudaMemcpy synchronizes at m.cu:20), 11 launch sites", "11"),
                ("formed graph region in 'g()': straight-line run, part 2 of 2 (after the loop "
                 "at lines 3-9), 1 launch site", "1"),
                ("formed graph region in 'f(float*, int)': loop iteration (lines 10-13), "
                 "segment 0 of 1, 2 launch sites", "2")]:
            self.assertEqual(ss.REGION.search(msg).group(2), n)

    def test_device_remarks_are_not_the_hosts(self):
        text = ("m.cu:1:1: remark: kernel 'k(float*)' (1 parameter, 8 bytes): graphs can change "
                "its arguments without a per-launch update [-Rpass-analysis=pygraph-device]")
        r = run_sweep.parse_remarks(text)
        self.assertEqual((r["site"], r["region"], r["eager"]), ([], [], []))

    def test_batchable_loop_is_not_a_region(self):
        text = "\n".join([
            "m.cu:13:5: remark: formed graph region in 'f(float*, int)': loop iteration "
            "(lines 11-14), segment 0 of 1, 1 launch site [-Rpass=pygraph]",
            "m.cu:13:5: remark: batchable loop (lines 11-14): up to 32 iterations per graph "
            "[-Rpass=pygraph]",
        ])
        r = run_sweep.parse_remarks(text)
        self.assertEqual(len(r["region"]), 1)
        self.assertEqual(len(r["batchable"]), 1)
        # Older results filed both under 'region': the summary splits them.
        regions, batch = ss.split_regions({"region": r["region"] + r["batchable"]})
        self.assertEqual((len(regions), len(batch)), (1, 1))


class WholeLoops(unittest.TestCase):
    def test_candidates_and_refusals(self):
        text = "\n".join([
            "m.cu:5:3: remark: whole loop as one conditional graph: candidate (exit test: at the "
            "end of the iteration, leave when (1 + i) == inv0; 2 operations, counted: no status "
            "copy; operands: 2 invariant, 1 affine, 4 rotating) [-Rpass-analysis=pygraph]",
            "m.cu:9:3: remark: loop (lines 9-12) not a whole-loop candidate: host store to "
            "escaping memory (store to 'g') at m.cu:10 [-Rpass-missed=pygraph]",
            "m.cu:14:3: remark: loop (lines 14-17) not a whole-loop candidate: call with effects "
            "'progress(int)' at m.cu:15 [-Rpass-missed=pygraph]",
        ])
        r = run_sweep.parse_remarks(text)
        self.assertEqual(len(r["whole"]), 3)
        self.assertEqual(r["eager"], [])           # loops, not launch sites
        md = "\n".join(ss.whole_loop_lines([{"remarks": r}]))
        self.assertIn("| candidates | 1 (33.3%) |", md)
        self.assertIn("| ... counted (no status copy) | 1 |", md)
        self.assertIn("| host store to escaping memory | 1 |", md)
        self.assertIn("| call with effects '…' | 1 |", md)


class Failures(unittest.TestCase):
    def test_kinds(self):
        fk = run_sweep.failure_kind
        self.assertEqual(fk({"rc": 0}, ""), "ok")
        self.assertEqual(fk({"rc": 124}, ""), "timeout")
        self.assertEqual(fk({"rc": 1}, "fatal error: error in backend: Broken module found"),
                         "verifier")
        self.assertEqual(fk({"rc": 1}, "PLEASE submit a bug report to ..."), "crash")
        self.assertEqual(fk({"rc": -11}, ""), "crash")
        self.assertEqual(fk({"rc": 1}, "a.cu:1:10: fatal error: 'mpi.h' file not found"), "error")
        # a plugin copied without its clang half compiles but does nothing
        self.assertEqual(fk({"rc": 0}, "pygraph: cannot load /x/libpygraph_clang.so (...): "
                                       "-fplugin=libpygraph.so does nothing"), "error")


class Makefiles(unittest.TestCase):
    def test_flags(self):
        import tempfile
        d = tempfile.mkdtemp()
        with open(os.path.join(d, "Makefile"), "w") as f:
            f.write("INC_DIR = include\nCFLAGS := -std=c++14 -DN=4 -I $(INC_DIR) -I$(MPI)/x\n"
                    "ifeq ($(DEBUG),yes)\n  CFLAGS += -DDEBUG\nendif\nLDFLAGS = -fopenmp\n")
        flags, openmp = run_sweep.makefile_flags(d)
        self.assertEqual(flags, ["-std=c++14", "-DN=4", "-I" + os.path.join(d, "include")])
        self.assertTrue(openmp)


if __name__ == "__main__":
    unittest.main()
