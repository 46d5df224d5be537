#!/usr/bin/env python3
"""Checks adoption_summary.py on made-up results (no HeCBench, no compiler): the share counts
only what nvcc builds, reasons are read from the logs, counts come from the summary lines."""
import json
import os
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import adoption_summary  # noqa: E402

SUMMARY_A = ("pygraph: main.cu: 2 graph regions (5 launch sites); 1 launch site left eager "
             "(why: -Xcompiler -Rpass-missed=pygraph)")
SUMMARY_B = "pygraph: util.cu: 1 graph region (1 launch site); none left eager"


class Summary(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="pg-adoption-test-")

    def tearDown(self):
        shutil.rmtree(self.work, ignore_errors=True)

    def result(self, phase, app, rc, log, summaries=()):
        for sub in ("results", "logs"):
            os.makedirs(os.path.join(self.work, sub, phase), exist_ok=True)
        with open(os.path.join(self.work, "results", phase, app + ".json"), "w") as f:
            json.dump({"app": app, "phase": phase, "rc": rc, "timed_out": rc is None,
                       "first_error": "", "summaries": list(summaries), "command": "make"}, f)
        with open(os.path.join(self.work, "logs", phase, app + ".log"), "w") as f:
            f.write(log)

    def test_share_reasons_counts(self):
        self.result("nvcc", "good-cuda", 0, "")
        self.result("pygraph", "good-cuda", 0, "", [SUMMARY_A, SUMMARY_B])
        self.result("nvcc", "bad-cuda", 0, "")
        self.result("pygraph", "bad-cuda", 2, "x.cu:3:4: error: no matching function for call to 'max'\n",
                    [SUMMARY_B])
        self.result("nvcc", "mpi-cuda", 2, "main.cu:1:10: fatal error: mpi.h: No such file or directory\n")
        self.result("nvcc", "byname-cuda", 0, "")
        self.result("pygraph", "byname-cuda", 2, "make: nvcc: No such file or directory\n")
        table = adoption_summary.rows(self.work)
        text = adoption_summary.render(table, {"date": "D", "hecbench": "H", "pygraph": "P",
                                               "command": "C"})
        self.assertIn("**1 of 3 applications whose Makefile builds with nvcc here also build", text)
        self.assertIn("(33.3%)", text)
        self.assertIn("| good-cuda | yes | yes |  | 3 | 6 | 1 |", text)
        self.assertIn("| bad-cuda | yes | **no** | clang: no matching function for call to 'max' | - | - | - |",
                      text)
        self.assertIn("| clang: no matching function for call to 'X' | 1 |", text)
        self.assertIn("the Makefile runs nvcc itself, not $(CC)", text)
        self.assertIn("| mpi-cuda | nvcc: mpi.h: No such file or directory |", text)
        self.assertIn("3 graph regions holding 6 launch sites, 1 launch sites left eager", text)


if __name__ == "__main__":
    unittest.main()
