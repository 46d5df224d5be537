#!/usr/bin/env python3
"""Tests of utils/pygraph-report on the JSON reports test_report_json writes
(an auto run and an eager run of one program on the fake backend) and on
utils/testdata/bench_results.md.

  test_pygraph_report.py text AUTO.json EAGER.json SCRATCH_DIR
  test_pygraph_report.py plot SCRATCH_DIR     (exit 77: skipped, no matplotlib)
"""
import json
import os
import pathlib
import subprocess
import sys

HERE = pathlib.Path(__file__).resolve().parent
TOOL = HERE / "pygraph-report"
TABLE = HERE / "testdata" / "bench_results.md"
failures = []


def run(*args, env=None):
    p = subprocess.run([sys.executable, str(TOOL), *map(str, args)], capture_output=True,
                       text=True, env=env)
    return p.returncode, p.stdout, p.stderr


def check(cond, what, output=""):
    if not cond:
        failures.append(what + ("\n" + output if output else ""))


def test_show(auto):
    rc, out, err = run("show", auto, "--wide")
    check(rc == 0, "show: exit status", err)
    lines = out.splitlines()
    row = [l for l in lines if l.startswith("ns::run")]
    check(len(row) == 1, "show: the odd region's row", out)
    if row:
        # control characters escaped, the name otherwise as the program has it
        check(row[0].startswith('ns::run<"q\\">(char const*) \\x01\ufffd caf\u00e9 dir "x"/a\\tb.cu:10-20 seg 0'),
              "show: the odd name", row[0])
        cols = row[0].split()
        check("graph faster (2.0 us vs 10.0 us per iteration)" in row[0], "show: why", row[0])
        check(["graph", "graph", "60", "56", "1", "0", "10.0", "2.0", "114", "-"] == cols[8:18],
              "show: the loop's figures", " ".join(cols))
    batched = [l for l in lines if l.startswith("batched()")]
    check(batched and batched[0].split()[1:12] ==
          ["test.cu:50-52", "seg", "0", "graph", "graph", "64", "59", "1", "0", "20.0", "2.0"],
          "show: the batched loop's row", "\n".join(batched))
    check(batched and batched[0].split()[12:14] == ["240", "4"], "show: batch K", out)
    flushy = [l for l in lines if l.startswith("flushy(int)")]
    check(flushy and flushy[0].split()[4:11] == ["eager", "warmup", "5", "0", "0", "5", "-"],
          "show: the flushing segment", out)
    check(lines[-1] == "total: 379 launches, 354 in graphs (93.4%)", "show: totals", out)
    rc, out, _ = run("show", auto)
    check(rc == 0 and any("..." in l for l in out.splitlines()), "show: long names shortened", out)


def test_compare(auto, eager, scratch):
    rc, out, err = run("compare", eager, auto)
    check(rc == 0, "compare: exit status", err)
    lines = out.splitlines()
    loop = [l for l in lines if "ns::run" in l]
    check(loop and loop[0].startswith("*") and "eager -> graph" in loop[0]
          and "- -> 10.0" in loop[0] and "0 -> 114" in loop[0], "compare: the loop's change", out)
    flushy = [l for l in lines if "flushy(int)" in l]
    check(flushy and not flushy[0].startswith("*"), "compare: flushy unchanged", out)
    check("launches: 379; in graphs: 0 -> 354; share: 0.0% -> 93.4% (+93.4 points)" in lines,
          "compare: totals", out)
    check(lines[-1] == "2 segment(s) changed decision or launches in graphs, 0 only in A, 0 only in B",
          "compare: summary", out)
    # B without the batched loop, and with a segment A never had
    doc = json.load(open(auto, encoding="utf-8"))
    extra = dict(doc["segments"][1], function="other()", line_begin=70, line_end=71)
    doc["segments"] = doc["segments"][:2] + [extra]
    b = pathlib.Path(scratch) / "report_edited.json"
    b.write_text(json.dumps(doc), encoding="utf-8")
    rc, out, _ = run("compare", auto, b)
    check(rc == 0 and "only in A: batched() test.cu:50-52 seg 0 (graph)" in out
          and "only in B: other() test.cu:70-71 seg 0 (eager)" in out, "compare: unmatched segments", out)
    check(out.splitlines()[-1] == "0 segment(s) changed decision or launches in graphs, 1 only in A, 1 only in B",
          "compare: unmatched summary", out)


def test_errors(scratch):
    rc, _, err = run("show", pathlib.Path(scratch) / "missing.json")
    check(rc == 2 and "cannot read" in err, "missing file", err)
    bad = pathlib.Path(scratch) / "not_a_report.json"
    bad.write_text('{"a": 1}', encoding="utf-8")
    rc, _, err = run("show", bad)
    check(rc == 2 and "not a pygraph report" in err, "JSON that is no report", err)
    bad.write_text('{"a": ', encoding="utf-8")
    rc, _, err = run("compare", bad, bad)
    check(rc == 2 and "is not JSON" in err, "broken JSON", err)
    rc, _, err = run("plot", pathlib.Path(__file__), "-o", pathlib.Path(scratch) / "x.png")
    check(rc == 2 and "has no table" in err, "plot of a file without tables", err)
    rc, _, err = run("plot", TABLE, "--table", "3", "-o", pathlib.Path(scratch) / "x.png")
    check(rc == 2 and "has 2 table(s), no table 3" in err, "plot: table out of range", err)


EXPECTED_FIRST = ["alpha: auto 2.00x graph 2.50x hand 4.00x",
                  "beta: auto 1.00x graph 0.50x hand -",
                  "gamma: auto - graph - hand -"]


def test_no_matplotlib(scratch):
    """A Python without matplotlib: a clear message, the figures still printed."""
    fake = pathlib.Path(scratch) / "no_matplotlib" / "matplotlib"
    fake.mkdir(parents=True, exist_ok=True)
    (fake / "__init__.py").write_text("raise ImportError('hidden by the test')\n")
    env = dict(os.environ, PYTHONPATH=str(fake.parent))
    out_png = pathlib.Path(scratch) / "none.png"
    rc, out, err = run("plot", TABLE, "-o", out_png, env=env)
    check(rc == 2 and "plot needs matplotlib" in err and "pip install matplotlib" in err,
          "plot without matplotlib: the message", err)
    check(out.splitlines() == EXPECTED_FIRST, "plot without matplotlib: figures printed", out)
    check(not out_png.exists(), "plot without matplotlib: no file")


def test_plot(scratch):
    out_png = pathlib.Path(scratch) / "bench.png"
    rc, out, err = run("plot", TABLE, TABLE, "--table", "-1", "-o", out_png)
    check(rc == 0, "plot: exit status", err)
    check(out.splitlines() == ["alpha: auto 3.00x graph 2.00x hand 1.50x", f"alpha: auto 3.00x graph 2.00x hand 1.50x",
                               f"wrote {out_png}"], "plot: the last tables' figures", out)
    rc, out, err = run("plot", TABLE, "-o", out_png)
    check(rc == 0 and out.splitlines() == EXPECTED_FIRST + [f"wrote {out_png}"], "plot: the first table", out + err)
    data = out_png.read_bytes() if out_png.exists() else b""
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "plot: a PNG file")
    if len(data) > 24:
        width, height = int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
        check(width >= 600 and height >= 300, f"plot: image size {width}x{height}")


def main():
    mode = sys.argv[1]
    if mode == "text":
        auto, eager, scratch = sys.argv[2:5]
        os.makedirs(scratch, exist_ok=True)
        test_show(auto)
        test_compare(auto, eager, scratch)
        test_errors(scratch)
        test_no_matplotlib(scratch)
    else:
        scratch = sys.argv[2]
        os.makedirs(scratch, exist_ok=True)
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            print("SKIP: matplotlib is not installed (utils/setup.sh installs it with pip)")
            return 77
        test_plot(scratch)
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
