#!/usr/bin/env python3
"""Reads the JSON reports test_report_json wrote (an auto run and an eager
run of the same program on the fake backend) with Python's json module and
checks their structure and the run's values.

  check_report_json.py AUTO.json EAGER.json
"""
import json
import sys

ODD_FUNCTION = 'ns::run<"q\\">(char const*) \x01\ufffd caf\u00e9'
ODD_FILE = 'dir "x"/a\tb.cu'
LAUNCHES = 60 * 2 + 5 + 254          # the three regions' kernels

SEGMENT_KEYS = {
    "function": str, "file": str, "line_begin": int, "line_end": int,
    "region_kind": str, "segment": int, "thread": int, "threads": int,
    "mode": str, "decision": str, "eager_us": float, "graph_us": float,
    "iters": int, "eager_iters": int, "timed": int, "replays": int,
    "captures": int, "rivals": int, "updates": int, "refreshes": int,
    "flushes": int, "mismatches": int, "program_captured": int,
    "launches_in_graphs": int, "graph_iters": int, "variants": int,
    "indirect_nodes": int, "indirect_bytes": int,
}
NULLABLE = {"why": str, "fallback": str, "last_flush": str, "verify": str, "trip_count": int,
            "batch": dict}

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def check_structure(doc, name):
    check(set(doc) == {"pygraph_report", "pid", "settings", "segments", "whole_loops", "totals"},
          f"{name}: top-level members {sorted(doc)}")
    check(doc.get("pygraph_report") == 1, f"{name}: version")
    check(doc["whole_loops"] == [], f"{name}: no whole loop entered")
    check(isinstance(doc.get("pid"), int), f"{name}: pid")
    for i, seg in enumerate(doc["segments"]):
        for key, typ in SEGMENT_KEYS.items():
            check(isinstance(seg.get(key), typ), f"{name}: segment {i}: {key} is not {typ.__name__}")
        for key, typ in NULLABLE.items():
            check(key in seg and (seg[key] is None or isinstance(seg[key], typ)),
                  f"{name}: segment {i}: {key}")
        check(seg["decision"] in ("graph", "eager"), f"{name}: segment {i}: decision")
        check(seg["mode"] in ("graph", "eager", "warmup"), f"{name}: segment {i}: mode")
    totals = doc["totals"]
    in_graphs = sum(s["launches_in_graphs"] for s in doc["segments"])
    check(totals["launches"] == LAUNCHES, f"{name}: launches {totals['launches']}")
    check(totals["in_graphs"] == in_graphs, f"{name}: in_graphs {totals['in_graphs']} != {in_graphs}")
    check(abs(totals["share_pct"] - 100.0 * in_graphs / LAUNCHES) < 0.001, f"{name}: share_pct")
    check(totals["segments"] == len(doc["segments"]) == 3, f"{name}: segment count")
    check(totals["graphed_segments"] == sum(1 for s in doc["segments"] if s["launches_in_graphs"]),
          f"{name}: graphed_segments")
    loop, flushy, batch = doc["segments"]
    check(loop["function"] == ODD_FUNCTION, f"{name}: odd function name read back as {loop['function']!r}")
    check(loop["file"] == ODD_FILE, f"{name}: odd file name read back as {loop['file']!r}")
    check((loop["line_begin"], loop["line_end"], loop["trip_count"]) == (10, 20, 100000), f"{name}: lines")
    check(flushy["function"] == "flushy(int)" and flushy["trip_count"] is None, f"{name}: flushy")
    check(batch["region_kind"] == "batch" and batch["trip_count"] == 4096, f"{name}: batch region")
    check(all(s["thread"] == 0 and s["threads"] == 1 for s in doc["segments"]), f"{name}: threads")


def check_auto(doc):
    check(doc["settings"]["mode"] == "auto", "auto: settings.mode")
    loop, flushy, batch = doc["segments"]
    check(loop["decision"] == "graph" and loop["mode"] == "graph", "auto: loop graphed")
    check((loop["iters"], loop["captures"], loop["replays"], loop["eager_iters"]) == (60, 1, 56, 3),
          f"auto: loop counts {loop['iters']} {loop['captures']} {loop['replays']} {loop['eager_iters']}")
    check(loop["launches_in_graphs"] == 2 * (loop["replays"] + loop["captures"]), "auto: loop in graphs")
    check((loop["eager_us"], loop["graph_us"]) == (10.0, 2.0), "auto: loop timings")
    check(loop["why"].startswith("graph faster") and loop["fallback"] is None, "auto: loop why")
    check(flushy["flushes"] == 5 and flushy["last_flush"] == "driver API launch", "auto: flushes")
    check(flushy["launches_in_graphs"] == 0 and flushy["decision"] == "eager", "auto: flushy eager")
    b = batch["batch"]
    check(b is not None and b["k"] == 4 and not b["given_up"], "auto: batch K")
    check(b is not None and b["tail_iters"] == 2 and b["iters_per_graph"] == 4.0, "auto: batch tail")
    check(batch["graph_iters"] == 4 * (batch["replays"] + batch["captures"]) == batch["launches_in_graphs"],
          "auto: batch graph iterations")
    check(doc["totals"]["in_graphs"] == 114 + 240, "auto: in_graphs")


def check_eager(doc):
    check(doc["settings"]["mode"] == "eager", "eager: settings.mode")
    for seg in doc["segments"]:
        check(seg["decision"] == "eager" and seg["why"] == "PYGRAPH_MODE=eager", "eager: decisions")
        check(seg["replays"] == seg["captures"] == 0, "eager: no graphs")
    check(doc["totals"]["in_graphs"] == 0 and doc["totals"]["share_pct"] == 0.0, "eager: totals")


def main():
    auto, eager = (json.load(open(p, encoding="utf-8")) for p in sys.argv[1:3])
    check_structure(auto, "auto")
    check_structure(eager, "eager")
    check_auto(auto)
    check_eager(eager)
    for f in failures:
        print("FAIL:", f)
    print(f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
