#!/usr/bin/env python3
"""results.md of the adoption sweep, from run_adoption.py's per-application results.

    bench/adoption/adoption_summary.py [--work build/adoption] [--out bench/adoption/results.md]
        [--command "..."] [--note "..."]

The share counted is: applications whose Makefile builds with nvcc here and
also builds with `make CC=pygraph-nvcc`, over those that build with nvcc.
A failed pygraph build is listed with its reason (reason() below); the
summary lines the driver printed give regions and launch sites per app.
"""
import argparse
import collections
import datetime
import glob
import json
import os
import re
import subprocess

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
COUNTS = re.compile(r"(\d+) graph regions? \((\d+) launch sites?\)(?:; (\d+) launch sites? left eager)?")


def load(work, phase):
    out = {}
    for path in glob.glob(os.path.join(work, "results", phase, "*.json")):
        with open(path) as f:
            r = json.load(f)
        out[r["app"]] = r
    return out


def reason(r, log, compiler="clang"):
    """A short reason for a failed build: the first error of the kind that
    stopped it, without file positions."""
    if r["timed_out"]:
        return "time limit"
    checks = [
        (r"pygraph-nvcc: error: (.*)", lambda m: "pygraph-nvcc: " + unplace(m.group(1))),
        (r"(?:nvcc|nvcc\S*): (?:not found|No such file or directory)|make: nvcc: No such file",
         lambda m: "the Makefile runs nvcc itself, not $(CC)"),
        (r"ptxas (?:error|fatal)\s*: (.*)", lambda m: "ptxas: " + unplace(m.group(1))),
        (r"undefined reference to `([^']*)'", lambda m: "link: undefined reference to " + m.group(1)[:60]),
        (r"/usr/bin/ld: (.*)", lambda m: "link: " + unplace(m.group(1))),
        (r"error: (.*)", lambda m: compiler + ": " + unplace(m.group(1))),
    ]
    for pattern, fmt in checks:
        m = re.search(pattern, log)
        if m:
            return fmt(m)
    return unplace(r["first_error"]) or "exit status %s" % r["rc"]


def unplace(text):
    return re.sub(r"\S+\.(cu|cuh|h|hpp|cpp|c|o):\d+(:\d+)?:?\s*", "", text).strip()[:140]


def generalise(text):
    """The kind of a reason: names in quotes become 'X', so like failures count together."""
    return re.sub(r"'[^']*'", "'X'", text)


def app_counts(summaries):
    regions = sites = eager = 0
    for line in summaries:
        m = COUNTS.search(line)
        if m:
            regions += int(m.group(1))
            sites += int(m.group(2))
            eager += int(m.group(3) or 0)
    return regions, sites, eager


def rows(work):
    nvcc, pyg = load(work, "nvcc"), load(work, "pygraph")
    table = []
    for app in sorted(nvcc):
        n = nvcc[app]
        row = {"app": app, "nvcc": n["rc"] == 0, "pygraph": None, "reason": "", "counts": None}
        if not row["nvcc"]:
            row["reason"] = reason(n, read_log(work, "nvcc", app), "nvcc")
        elif app in pyg:
            p = pyg[app]
            row["pygraph"] = p["rc"] == 0
            row["counts"] = app_counts(p["summaries"])
            if not row["pygraph"]:
                row["reason"] = reason(p, read_log(work, "pygraph", app))
        table.append(row)
    return table


def read_log(work, phase, app):
    try:
        with open(os.path.join(work, "logs", phase, app + ".log"), errors="replace") as f:
            return f.read()
    except OSError:
        return ""


def render(table, meta):
    built = [r for r in table if r["nvcc"] and r["pygraph"] is not None]
    ok = [r for r in built if r["pygraph"]]
    share = 100.0 * len(ok) / len(built) if built else 0.0
    lines = ["# Adoption sweep: HeCBench Makefiles with `make CC=pygraph-nvcc`", "",
             "Compile-only, no GPU. Produced by `bench/adoption/run_adoption.py` (see README.md).", "",
             "- Date: %s" % meta["date"], "- HeCBench: `%s`" % meta["hecbench"],
             "- pygraph: `%s`" % meta["pygraph"], "- Command: `%s`" % meta["command"]]
    lines += ["- %s" % meta["note"]] if meta.get("note") else []
    lines += ["", "**%d of %d applications whose Makefile builds with nvcc here also build with "
              "`make CC=pygraph-nvcc` (%.1f%%).** %d of the %d applications tried build with nvcc "
              "(`make CC=nvcc`, same ARCH); the others are not counted (listed at the end)."
              % (len(ok), len(built), share, len([r for r in table if r["nvcc"]]), len(table)), ""]
    totals = [sum(r["counts"][i] for r in ok if r["counts"]) for i in range(3)]
    lines += ["Over the applications built: %d graph regions holding %d launch sites, %d launch sites "
              "left eager (from the driver's summary lines)." % tuple(totals), ""]
    lines += failure_section(built) + table_section(built) + nvcc_section(table)
    return "\n".join(lines) + "\n"


def failure_section(built):
    fails = collections.Counter(generalise(r["reason"]) for r in built if not r["pygraph"])
    if not fails:
        return []
    out = ["## Reasons pygraph-nvcc builds failed", "",
           "Grouped by kind (names in quotes as 'X'); each application's own reason is in the table below.",
           "", "| reason | apps |", "|---|---|"]
    out += ["| %s | %d |" % (k.replace("|", "\\|"), v) for k, v in fails.most_common()]
    return out + [""]


def table_section(built):
    out = ["## Per application", "",
           "| app | nvcc builds | pygraph-nvcc builds | reason | regions | launch sites in regions | eager |",
           "|---|---|---|---|---|---|---|"]
    for r in built:   # counts only of builds that finished: a failed one's are partial
        c = ["%d" % n for n in r["counts"]] if r["pygraph"] and r["counts"] else ["-"] * 3
        out.append("| %s | yes | %s | %s | %s | %s | %s |" % (
            r["app"], "yes" if r["pygraph"] else "**no**", r["reason"].replace("|", "\\|"), *c))
    return out + [""]


def nvcc_section(table):
    out = ["## Not counted: the Makefile does not build with nvcc here", "",
           "| app | reason |", "|---|---|"]
    out += ["| %s | %s |" % (r["app"], r["reason"].replace("|", "\\|")) for r in table if not r["nvcc"]]
    return out + [""]


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--work", default=os.path.join(REPO, "build", "adoption"))
    p.add_argument("--out", default=os.path.join(HERE, "results.md"))
    p.add_argument("--command", default="bench/adoption/run_adoption.py")
    p.add_argument("--note", default="")
    args = p.parse_args()
    with open(os.path.join(args.work, "hecbench.commit")) as f:
        hecbench = f.read().strip()
    head = subprocess.run(["git", "-C", REPO, "rev-parse", "--short", "HEAD"], capture_output=True,
                          text=True).stdout.strip()
    meta = {"date": datetime.datetime.utcnow().strftime("%Y-%m-%d %H:%M UTC"), "hecbench": hecbench,
            "pygraph": head, "command": args.command, "note": args.note}
    with open(args.out, "w") as f:
        f.write(render(rows(args.work), meta))
    print("wrote", args.out)


if __name__ == "__main__":
    main()
