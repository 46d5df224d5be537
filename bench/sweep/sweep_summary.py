"""Summary (markdown) and per-file TSV of a coverage sweep, from the per-file
JSON results run_sweep.py leaves in <work>/results."""
import collections
import glob
import json
import os
import re
import shlex
import statistics

# "launch of 'K' stays eager: only 1 launch site after X before the next barrier (Y); ...
# [keyword]" (older passes: no "(Y)", the barrier the segment runs into, and no keyword)
ALONE = re.compile(r"stays eager: only (\d+) launch sites? (.*?) before the next barrier"
                   r"(?: \((.*)\))?; a graph region needs at least \d+ \(min-launches\)"
                   r"(; loop not batchable: .*?)?(?: \[[\w=.-]+\])?$")
KEYWORD = re.compile(r" \[[\w=.-]+\]$")  # the reason's keyword closing a missed remark
ALONE_CUT = re.compile(r"stays eager: only (\d+) launch sites? after (.*)$")
CUT = "(remark text cut by the pass) "
# "... loop iteration (lines 3-9)[, part 2 of 3 (after X)], 4 launch sites"; older passes
# said ", segment 1 of 3, " there.
REGION = re.compile(r"graph region in .*: (loop iteration|straight-line run).*?, "
                    r"(\d+) launch sites?$")
USER_FN = "call of a user function that may synchronize"
# A batchable loop's own -Rpass remark, beside its region's (same location).
BATCHABLE = "batchable loop ("


def split_regions(remarks):
    """Region remarks and batchable-loop remarks apart (sweeps before the
    runner knew the latter filed both under 'region')."""
    every = remarks.get("region", []) + remarks.get("batchable", [])
    batch = [g for g in every if g["msg"].startswith(BATCHABLE)]
    return [g for g in every if not g["msg"].startswith(BATCHABLE)], batch
AT_LOC = re.compile(r" at (<unknown location>|[^ ,()]+:\d+)")


def listed(work, name):
    path = os.path.join(work, name)
    return set(open(path).read().split("\n")) - {""} if os.path.exists(path) else None


def load(work):
    """The results of the files the last sweep enumerated (files.list)."""
    wanted = listed(work, "files.list")
    recs = [json.load(open(p)) for p in sorted(glob.glob(os.path.join(work, "results", "*.json")))]
    recs = [r for r in recs if wanted is None or r["app"] + "/" + r["file"] in wanted]
    return sorted(recs, key=lambda r: (r["app"], r["file"]))


def barrier_of(origin):
    """(reason class, barrier callee) of a segment's origin text."""
    if origin == "at the start of the loop iteration":
        return "alone at the start of a loop iteration", "-"
    if origin == "outside loops":
        return "alone outside loops", "-"
    what = AT_LOC.sub("", origin[len("after "):]) if origin.startswith("after ") else origin
    m = re.match(r"call of '(.*?)', which may synchronize \((.*?)\)?$", what)
    if m:  # a user function that synchronizes somewhere inside: name what it calls
        inner, callee = barrier_of("after " + m.group(2))
        if inner.startswith(USER_FN):  # nested helpers: keep the innermost reason
            return inner, callee
        return USER_FN + " (%s)" % inner, callee
    m = re.match(r"call of '(.*)', a volatile or atomic read, deciding a loop exit", what)
    if m:
        return "volatile/atomic read deciding a loop exit", m.group(1)
    if "deciding a loop exit" in what:
        return "volatile/atomic read deciding a loop exit", what.split(" deciding")[0]
    m = re.match(r"call of external function '(.*?)'( with.*)?$", what)  # older passes
    if not m:
        m = re.match(r"external call '(.*)', which may synchronize", what)
    if m:
        return "external function with unknown effect", m.group(1)
    m = re.match(r"CUDA call '(.*)' that pygraph does not know$", what)
    if m:
        return "CUDA call pygraph does not know", m.group(1)
    if what in ("indirect call", "inline assembly"):
        return what, "<" + what + ">"
    m = re.match(r"call of '([^']*)$", what)  # a cut text ending inside a name
    if m:
        return "call of a function whose name the cut text lost", "<cut: %s...>" % m.group(1)[:40]
    m = re.match(r"(\w+) (.*)$", what)  # "cudaMemcpy synchronizes", "cuX (not deferred ...)"
    if m:
        return "CUDA API: " + m.group(2), m.group(1)
    return what, what


def eager_reason(msg):
    """(reason, barrier callee or '-', launch sites in the segment or None).
    The pass cuts long remark texts (issue 14 part 4): a cut one is parsed as
    far as it goes and its reason marked so."""
    if "stays eager: " not in msg:
        return CUT + "before its reason (long kernel name)", "-", None
    body = KEYWORD.sub("", msg.split("stays eager: ", 1)[1])
    m = ALONE.search(msg)
    if not m:
        m = ALONE_CUT.search(msg)
        if not m:
            return body, "-", None
        reason, callee = barrier_of("after " + m.group(2))
        return CUT + "after " + reason, callee, int(m.group(1))
    origin = m.group(2)
    reason, callee = barrier_of(origin)
    if origin.startswith("after "):
        reason = "after " + reason
    return reason, callee, int(m.group(1))


def launch_eager(rm):
    """The eager launch sites of a file's remarks (results written before
    parse_remarks kept only launch remarks also hold loop remarks)."""
    return [e for e in rm.get("eager", []) if e["msg"].startswith("launch of ")]


def per_file_row(r):
    rm = r.get("remarks", {})
    plug = r.get("plugin", {})
    sites, eager = len(rm.get("site", [])), len(launch_eager(rm))
    ratio = ""
    if plug.get("kind") == "ok" and r["plain"]["cpu"] > 0:
        ratio = "%.3f" % (plug["cpu"] / r["plain"]["cpu"])
    return [r["app"], r["file"], r["plain"]["kind"], str(r["plain"]["cpu"]),
            plug.get("kind", "-"), str(plug.get("cpu", "")), ratio, str(sites),
            str(sites - eager if plug.get("kind") == "ok" else ""), str(eager),
            str(len(split_regions(rm)[0])),
            (r["plain"].get("error") or plug.get("error") or "").replace("\t", " ")]


TSV_HEAD = ["app", "file", "plain", "plain_cpu_s", "plugin", "plugin_cpu_s", "cpu_ratio",
            "launch_sites", "in_regions", "eager", "regions", "first_error"]


def pct(a, b):
    return "%.1f%%" % (100.0 * a / b) if b else "-"


def table(rows, head):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return out


def write_summary(work, meta):
    recs = load(work)
    meta = meta or (json.load(open(os.path.join(work, "meta.json")))
                    if os.path.exists(os.path.join(work, "meta.json")) else {})
    with open(os.path.join(work, "files.tsv"), "w") as f:
        f.write("\t".join(TSV_HEAD) + "\n")
        for r in recs:
            f.write("\t".join(per_file_row(r)) + "\n")
    md = summarize(recs, meta, len(listed(work, "included.list") or ()))
    open(os.path.join(work, "summary.md"), "w").write("\n".join(md) + "\n")


def summarize(recs, meta, n_included):
    plain_ok = [r for r in recs if r["plain"]["kind"] == "ok"]
    plug_ok = [r for r in plain_ok if r["plugin"]["kind"] == "ok"]
    defects = [r for r in plain_ok if r["plugin"]["kind"] != "ok"]
    kinds = collections.Counter(r["plugin"]["kind"] for r in defects)
    apps = {r["app"] for r in recs}
    md = ["# pygraph compile-only coverage sweep", ""]
    if meta:
        md += ["HeCBench %s; %s; -j%s%s; %s s wall for the sweep." % (
            meta.get("hecbench_commit", "?")[:12], meta.get("clang", ""), meta.get("jobs"),
            " under nice -n %s" % meta["nice"] if meta.get("nice") else "",
            meta.get("elapsed_s")), ""]
    wall = sum(r["plain"]["wall"] + r.get("plugin", {}).get("wall", 0) for r in recs)
    md += ["Compiles' wall time summed over all files (plain + plugin): %.0f s, i.e. about "
           "%.0f min for a sweep from scratch at -j%s on an otherwise idle machine." % (
               wall, wall / 60 / max(1, meta.get("jobs", 1) if meta else 1),
               meta.get("jobs", 1) if meta else 1), ""]
    md += ["## Compilation", ""]
    md += table([["files (CUDA sources of %d apps)" % len(apps), len(recs)],
                 ["(not counted: CUDA sources another source #includes)", n_included],
                 ["compiled plain", len(plain_ok)],
                 ["failed plain (not pygraph's: counted apart)", len(recs) - len(plain_ok)],
                 ["compiled with the plugin (of those compiled plain)", len(plug_ok)],
                 ["plugin crashes", kinds["crash"]], ["plugin verifier errors", kinds["verifier"]],
                 ["plugin timeouts", kinds["timeout"]], ["plugin other errors", kinds["error"]]],
                ["", "count"])
    md += [""] + defect_lines(defects) + compile_time_lines(plug_ok) + coverage_lines(plug_ok)
    md += plain_failure_lines([r for r in recs if r["plain"]["kind"] != "ok"])
    return md


def defect_lines(defects):
    if not defects:
        return ["No file that compiles plain fails with the plugin.", ""]
    md = ["## Defects: compiled plain, failed with the plugin", ""]
    for r in defects:
        md += ["- `%s/%s`: %s: %s" % (r["app"], r["file"], r["plugin"]["kind"],
                                       r["plugin"].get("error", "")),
               "  `cd <work>/%s && %s`" % (r["cwd"], " ".join(shlex.quote(a) for a in r["cmd"])
                                           + " -fplugin=<build>/pass/libpygraph.so")]
    return md + [""]


def compile_time_lines(ok):
    if not ok:
        return []
    ratios = [r["plugin"]["cpu"] / r["plain"]["cpu"] for r in ok if r["plain"]["cpu"] > 0]
    plain = sum(r["plain"]["cpu"] for r in ok)
    plug = sum(r["plugin"]["cpu"] for r in ok)
    worst = sorted(ok, key=lambda r: r["plugin"]["cpu"] / max(r["plain"]["cpu"], 1e-3))[-5:]
    md = ["## Compile time (CPU seconds of the whole compile: host + device jobs, ptxas)", ""]
    md += table([["median ratio plugin/plain", "%.3f" % statistics.median(ratios)],
                 ["total plain", "%.0f s" % plain], ["total with plugin", "%.0f s" % plug],
                 ["total ratio", "%.3f" % (plug / plain)],
                 ["highest ratios", ", ".join("%s/%s %.2f (%.1f s)" % (
                     r["app"], r["file"], r["plugin"]["cpu"] / r["plain"]["cpu"],
                     r["plugin"]["cpu"]) for r in reversed(worst))]], ["", "value"])
    return md + [""]


def coverage_lines(ok):
    sites = sum(len(r["remarks"]["site"]) for r in ok)
    eager = [(r, e) for r in ok for e in launch_eager(r["remarks"])]
    regions, batch = [], []
    for r in ok:
        g, b = split_regions(r["remarks"])
        regions += [dict(x, file=r["app"] + "/" + r["file"]) for x in g]
        batch += [dict(x, file=r["app"] + "/" + r["file"]) for x in b]
    region_sites = sum(int(m.group(2)) for g in regions for m in [REGION.search(g["msg"])] if m)
    batch_at = {(b["file"], b["loc"]) for b in batch}
    batch_sites = sum(int(m.group(2)) for g in regions if (g["file"], g["loc"]) in batch_at
                      for m in [REGION.search(g["msg"])] if m)
    files_with = sum(1 for r in ok if r["remarks"]["site"])
    md = ["## Launch sites", ""]
    md += table([["launch sites (IR call sites, host compile; a template launch counts once "
                  "per instantiation)", sites],
                 ["files with launch sites", files_with],
                 ["in regions (sites - eager)", "%d (%s)" % (sites - len(eager),
                                                             pct(sites - len(eager), sites))],
                 ["region remarks' launch counts, summed (a launching callee's sites count at each call)",
                  region_sites],
                 ["regions formed (segments)", len(regions)],
                 ["of them loop iterations", sum("loop iteration" in g["msg"] for g in regions)],
                 ["of them batchable loops (several iterations per graph)", len(batch)],
                 ["region remarks' launch counts in batchable loops", batch_sites],
                 ["eager", "%d (%s)" % (len(eager), pct(len(eager), sites))],
                 ["synchronizing/uncapturable calls inside loops (analysis)",
                  sum(r["remarks"]["sync_in_loop"] for r in ok)]], ["", "count"])
    md += [""] + eager_lines(eager) + whole_loop_lines(ok)
    return md


WHOLE_REASON = re.compile(r" not a whole-loop candidate: (.*?)(?: at [^ ]+:\d+)?(?: \[[\w=.-]+\])?$")
WHOLE_DETAIL = [(re.compile(r"'[^']*'"), "'…'"),                     # names
                (re.compile(r" \((?:store to|of) '…'\)| \(lines \d+-\d+\)"), ""),  # what, where
                (re.compile(r" \(at [^()]*\)| at (?:<unknown location>|[^ ,()]+:\d+)"), "")]   # places


def whole_loop_lines(recs):
    """Loops judged for a whole-loop graph (issue 17): candidates with a
    status copy or counted, refusals by reason (names and places dropped).
    Results of sweeps before the runner kept these remarks have none."""
    judged = [w["msg"] for r in recs for w in r["remarks"].get("whole", [])]
    if not judged:
        return []
    cands = [m for m in judged if m.startswith("whole loop as one conditional graph")]
    counted = sum("counted: no status copy" in m for m in cands)
    reasons = collections.Counter()
    for m in judged:
        found = WHOLE_REASON.search(m)
        if found:
            reason = found.group(1)
            for pattern, repl in WHOLE_DETAIL:
                reason = pattern.sub(repl, reason)
            reasons[reason.strip()] += 1
    md = ["", "## Loops judged for a whole-loop graph (conditional WHILE node)", ""]
    md += table([["loops judged", len(judged)],
                 ["candidates", "%d (%s)" % (len(cands), pct(len(cands), len(judged)))],
                 ["... with a device-to-host status copy", len(cands) - counted],
                 ["... counted (no status copy)", counted]], ["", "loops"])
    md += ["", "| why not a candidate (top 12) | loops |", "|---|---|"]
    md += ["| %s | %d |" % (k, v) for k, v in reasons.most_common(12)]
    return md


def eager_lines(eager):
    by_reason, by_callee, alone = collections.Counter(), collections.Counter(), collections.Counter()
    apps_by_callee = collections.defaultdict(set)
    for r, e in eager:
        reason, callee, n = eager_reason(e["msg"])
        by_reason[reason] += 1
        if callee != "-":
            by_callee[callee] += 1
            apps_by_callee[callee].add(r["app"])
        alone[n] += 1
    total = len(eager)
    md = ["## Eager launch sites by reason", ""]
    md += table([[k, v, pct(v, total)] for k, v in by_reason.most_common(15)],
                ["reason (the barrier that opened the launch's segment)", "sites", "share"])
    md += ["", "## Eager launch sites by barrier call (top 20)", ""]
    md += table([["`%s`" % k, v, pct(v, total), len(apps_by_callee[k])]
                 for k, v in by_callee.most_common(20)], ["barrier", "sites", "share", "apps"])
    lone = alone[1]
    start = sum(1 for _, e in eager if "only 1 launch site at the start of the loop" in e["msg"])
    md += ["", "## How alone the eager launches were", "",
           "The remarks name the segment (the stretch between two barriers) a launch sat in, "
           "not the whole loop iteration.", ""]
    md += table([["eager sites alone in their segment (1 launch site)", "%d (%s)" % (
                     lone, pct(lone, total))],
                 ["... of which at the start of a loop iteration, before its first barrier",
                  "%d (%s)" % (start, pct(start, total))],
                 ["eager sites with 2+ launches in the segment (min-launches raised)",
                  sum(v for n, v in alone.items() if n and n > 1)],
                 ["other reasons", alone[None]]], ["", "sites"])
    return md + [""]


def plain_failure_lines(failed):
    if not failed:
        return []
    causes = collections.Counter(classify_plain(r["plain"].get("error", "")) for r in failed)
    md = ["## Files that fail plain (clang vs nvcc, missing deps): first error by kind", ""]
    md += table([[k, v] for k, v in causes.most_common(12)], ["first error", "files"])
    return md + [""]


def classify_plain(err):
    err = re.sub(r"^.*?(fatal )?error: ", "", err)
    err = re.sub(r"'[^']*'", "'…'", err)
    return err[:90]
