#!/usr/bin/env python3
"""Compile-only coverage sweep of pygraph over the CUDA sources of HeCBench.

Every CUDA source of every src/*-cuda application is compiled twice with
`clang++ -x cuda -c -O2 --cuda-gpu-arch=sm_90` (host and device jobs, since
the plugin runs in both): once plain, once with the plugin and its three
remark flags.  A file that fails plain is counted apart (a clang-vs-nvcc
difference, not pygraph's fault); one that compiles plain but fails with the
plugin is a defect, reported with the command that reproduces it.

Results are kept per file (one JSON each), so an interrupted sweep resumes
where it stopped; `summary.md` and `files.tsv` are rebuilt from them at the
end (or alone with --summary-only).  See README.md in this folder.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time

from sweep_summary import write_summary

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_MIRROR = "/work/.mirror/zjin-lcf+HeCBench/repo"
HOST_SOURCE_EXTS = (".c", ".cc", ".cpp", ".cxx")
# a chevron launch in a .c/.cpp file: `name<<<...>>>(`
CHEVRON_LAUNCH = re.compile(r"[A-Za-z0-9_]\s*<<<.*>>>\s*\(")
# clang accepts `<<<`, nvcc also `<< <` and `>> >`
SPACED_CHEVRON_LINE = re.compile(r"<<\s+<")
INCLUDED_SOURCE = re.compile(r'^\s*#\s*include\s*["<]([^">]+\.(?:cu|c|cc|cpp|cxx))[">]', re.M)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-j", "--jobs", type=int, default=2, help="files compiled at once (default 2)")
    p.add_argument("--mirror", default=DEFAULT_MIRROR, help="HeCBench git directory (bare)")
    p.add_argument("--rev", default="HEAD", help="HeCBench revision to extract (default HEAD)")
    p.add_argument("--work", default=os.path.join(HERE, "work"),
                   help="sources, per-file results and logs (default bench/sweep/work, ignored)")
    p.add_argument("--plugin", default=os.path.join(REPO, "build", "pass", "libpygraph.so"))
    p.add_argument("--clang", default="clang++-22")
    p.add_argument("--cuda", default="/usr/local/cuda")
    p.add_argument("--timeout", type=int, default=300, help="seconds per compile (default 300)")
    p.add_argument("--nice", type=int, default=0, help="run compilers under nice -n N")
    p.add_argument("--only", default="", help="regex: only applications whose name matches")
    p.add_argument("--limit", type=int, default=0, help="compile at most N files (a quick try)")
    p.add_argument("--redo", action="store_true", help="ignore earlier per-file results")
    p.add_argument("--redo-plugin", action="store_true",
                   help="keep earlier plain results, compile again with the plugin (after a "
                        "plugin change: half the time; plain CPU times are the earlier run's)")
    p.add_argument("--summary-only", action="store_true", help="rebuild the summary, compile nothing")
    return p.parse_args()


# ---------------------------------------------------------------- sources

def extract_sources(mirror, rev, work):
    """git archive of src/ into work/src (once per revision), skipping blobs the
    mirror lacks (large data files), then nvcc's spaced chevrons fixed."""
    commit = subprocess.check_output(["git", "-C", mirror, "rev-parse", rev + "^{commit}"],
                                     text=True).strip()
    stamp = os.path.join(work, "src.commit")
    if os.path.exists(stamp) and open(stamp).read().strip() == commit:
        return commit
    dest = os.path.join(work, "src")
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(work, exist_ok=True)
    tree = subprocess.check_output(["git", "-C", mirror, "ls-tree", "-r", commit, "src"], text=True)
    entries = [line.split("\t", 1) for line in tree.splitlines()]
    shas = "\n".join(meta.split()[2] for meta, _ in entries) + "\n"
    check = subprocess.run(["git", "-C", mirror, "cat-file", "--batch-check"], input=shas,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    missing = [path for (_, path), c in zip(entries, check) if c.endswith(" missing")]
    excludes = [":(exclude)" + path for path in missing]
    archive = subprocess.Popen(["git", "-C", mirror, "archive", commit, "--", "src"] + excludes,
                               stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", work], stdin=archive.stdout, check=True)
    archive.wait()  # it may complain about an absent blob it did not need: tar's check suffices
    fix_spaced_chevrons(dest)
    with open(stamp, "w") as f:
        f.write(commit + "\n")
    return commit


def fix_spaced_chevrons(src):
    for app in os.listdir(src):
        for dirpath, _, names in os.walk(os.path.join(src, app)):
            for n in names:
                if n.endswith((".cu", ".cuh", ".h", ".hpp") + HOST_SOURCE_EXTS):
                    fix_file(os.path.join(dirpath, n))


def fix_file(path):
    if os.path.islink(path):
        return
    try:
        text = open(path, encoding="latin-1").read()
    except OSError:
        return
    if not SPACED_CHEVRON_LINE.search(text):
        return
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if SPACED_CHEVRON_LINE.search(line):
            line = re.sub(r"<<\s+<", "<<<", line)
            lines[i] = re.sub(r">>\s+>", ">>>", line)
    open(path, "w", encoding="latin-1").write("\n".join(lines))


def cuda_sources(src, only):
    """Every .cu file of src/*-cuda, plus .c/.cpp files that define kernels or
    launch with chevrons (a few Makefiles compile those with nvcc); a file
    another one #includes is part of that translation unit, not one itself.
    Returns (sources, included)."""
    files, included = [], []
    for app in sorted(os.listdir(src)):
        if not app.endswith("-cuda") or (only and not re.search(only, app)):
            continue
        appdir = os.path.join(src, app)
        candidates, includes = [], set()
        for dirpath, dirs, names in os.walk(appdir):
            dirs.sort()
            for n in sorted(names):
                path = os.path.join(dirpath, n)
                if not os.path.isfile(path):
                    continue
                if n.endswith((".cu", ".cuh", ".h", ".hpp") + HOST_SOURCE_EXTS):
                    includes |= included_sources(path)
                if is_cuda_source(path):
                    candidates.append(os.path.relpath(path, appdir))
        for rel in candidates:
            (included if os.path.basename(rel) in includes else files).append((app, rel))
    return files, included


def included_sources(path):
    text = open(path, encoding="latin-1").read()
    return {os.path.basename(m) for m in INCLUDED_SOURCE.findall(text)}


def is_cuda_source(path):
    if path.endswith(".cu"):
        return True
    if not path.endswith(HOST_SOURCE_EXTS):
        return False
    text = open(path, encoding="latin-1").read()
    return "__global__" in text or CHEVRON_LAUNCH.search(text) is not None


# ---------------------------------------------------------------- flags

def makefile_flags(appdir):
    """-I, -D and -std flags of the application's Makefile (outside ifeq/ifdef
    blocks, simple make variables expanded), and whether it uses OpenMP."""
    mk = os.path.join(appdir, "Makefile")
    if not os.path.exists(mk):
        return [], False
    lines, depth, openmp = [], 0, False
    with open(mk, encoding="latin-1") as f:
        text = f.read()
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        word = line.strip().split(" ", 1)[0]
        if word in ("ifeq", "ifneq", "ifdef", "ifndef"):
            depth += 1
        elif word == "endif":
            depth = max(0, depth - 1)
        openmp |= "fopenmp" in line
        if not depth:
            lines.append(line)
    variables = make_variables(lines)
    flags = []
    for line in lines:
        toks = [expand(t, variables) for t in line.split()]
        for i, tok in enumerate(toks):
            if tok == "-I" and i + 1 < len(toks):
                tok = "-I" + toks[i + 1]
            if "$" in tok or "<" in tok or ">" in tok:
                continue
            if tok.startswith("-I") and len(tok) > 2:
                inc = tok[2:]
                flags.append("-I" + (inc if os.path.isabs(inc) else os.path.join(appdir, inc)))
            elif re.match(r"-D[A-Za-z_]\w*(=\S+)?$", tok) or re.match(r"-std=(c|gnu)\+\+\d\w$", tok):
                flags.append(tok)
    return dedupe(flags), openmp


def make_variables(lines):
    variables = {}
    for line in lines:
        m = re.match(r"\s*([A-Za-z_]\w*)\s*[:?]?=\s*(\S*)\s*$", line)
        if m:
            variables[m.group(1)] = m.group(2)
    return variables


def expand(tok, variables):
    return re.sub(r"\$[({](\w+)[)}]", lambda m: variables.get(m.group(1), m.group(0)), tok)


def dedupe(items):
    seen, out = set(), []
    for x in items:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out


def compile_flags(args, src, app, rel, omp_include):
    appdir = os.path.join(src, app)
    mk, openmp = makefile_flags(appdir)
    if not any(f.startswith("-std=") for f in mk):
        mk.append("-std=c++17")
    flags = ["-x", "cuda", "--cuda-gpu-arch=sm_90", "--cuda-path=" + args.cuda, "-O2",
             "-Wno-register", "-Wno-unknown-cuda-version", "-w",
             "-I" + os.path.join(args.cuda, "include", "cccl"),
             "-I" + os.path.dirname(os.path.join(appdir, rel)), "-I" + appdir,
             "-I" + os.path.join(src, "include"),
             # removed in CUDA 13; same meaning
             "-DcudaThreadSynchronize=cudaDeviceSynchronize",
             "-fverify-intermediate-code", "-fno-crash-diagnostics"]
    if openmp:
        flags += ["-fopenmp=libgomp", "-isystem", omp_include]
    return flags + mk + ["-c", rel, "-o", "/dev/null"]


def plugin_flags(plugin):
    return ["-fplugin=" + plugin, "-Rpass=pygraph", "-Rpass-missed=pygraph",
            "-Rpass-analysis=pygraph"]


def omp_include_dir(work):
    """A folder holding GCC's omp.h alone (clang 22 here ships none)."""
    d = os.path.join(work, "omp-include")
    os.makedirs(d, exist_ok=True)
    gcc = subprocess.run(["gcc", "-print-file-name=include/omp.h"], capture_output=True,
                         text=True).stdout.strip()
    if os.path.exists(gcc) and not os.path.exists(os.path.join(d, "omp.h")):
        shutil.copy(gcc, d)
    return d


# ---------------------------------------------------------------- compiling

def run_compile(cmd, cwd, log, args):
    """Runs cmd under timeout; returns exit status and CPU seconds of the
    whole process tree (driver, cc1 jobs, ptxas, fatbinary)."""
    prefix = ["timeout", "-k", "10", str(args.timeout)]
    if args.nice:
        prefix = ["nice", "-n", str(args.nice)] + prefix
    start = time.monotonic()
    with open(log, "wb") as err:
        proc = subprocess.Popen(prefix + cmd, cwd=cwd, stdout=err, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    return {"rc": proc.returncode, "cpu": round(usage.ru_utime + usage.ru_stime, 3),
            "wall": round(time.monotonic() - start, 3)}


CRASH_MARKS = ("PLEASE submit a bug report", "Stack dump:", "frontend command failed due to signal",
               "clang frontend command failed with exit code 13")
VERIFIER_MARKS = ("Broken module found", "verification failed", "does not dominate all uses",
                  "Instruction does not dominate", "Invalid operand", "error in backend")


# The plugin loaded but did nothing (its clang half missing beside it): the
# compile succeeds, yet every file would count as one without remarks.
NOT_LOADED_MARK = "-fplugin=libpygraph.so does nothing"


def failure_kind(run, text):
    if NOT_LOADED_MARK in text:
        return "error"
    if run["rc"] == 0:
        return "ok"
    if run["rc"] in (124, 137):
        return "timeout"
    if any(m in text for m in VERIFIER_MARKS):
        return "verifier"
    if run["rc"] < 0 or run["rc"] > 128 or any(m in text for m in CRASH_MARKS):
        return "crash"
    return "error"


def first_error(text):
    for line in text.splitlines():
        if " error: " in line or line.startswith("error:") or "fatal error" in line:
            return line.strip()[:300]
    return text.strip().splitlines()[-1][:300] if text.strip() else ""


REMARK = re.compile(r"^(.*?):(\d+):(\d+): remark: (.*) \[-R(pass|pass-missed|pass-analysis)=pygraph\]$")


# A loop judged for a whole-loop graph (issue 17): a candidate, or why not.
WHOLE_CANDIDATE = "whole loop as one conditional graph: candidate"
WHOLE_REFUSED = " not a whole-loop candidate: "


def parse_remarks(text):
    """The plugin's remarks, by kind: 'site' (every launch site, host
    compile), 'region', 'eager' (each with its text and location), and
    'whole' (loops judged for a whole-loop graph: candidates and refusals).
    Only a missed remark about a launch is an eager site: the others (a loop
    that is no whole-loop candidate, say) are about loops, not launch sites."""
    out = {"site": [], "region": [], "batchable": [], "eager": [], "whole": [],
           "sync_in_loop": 0}
    for line in text.splitlines():
        m = REMARK.match(line)
        if not m:
            continue
        loc, msg, flag = "%s:%s:%s" % m.group(1, 2, 3), m.group(4), m.group(5)
        if flag == "pass-analysis" and msg.startswith("launch of "):
            out["site"].append(loc)
        elif (flag == "pass-analysis" and msg.startswith(WHOLE_CANDIDATE)) or (
                flag == "pass-missed" and WHOLE_REFUSED in msg):
            out["whole"].append({"loc": loc, "msg": msg})
        elif flag == "pass-analysis" and " inside a loop " in msg:
            out["sync_in_loop"] += 1
        elif flag == "pass" and msg.startswith("batchable loop ("):
            out["batchable"].append({"loc": loc, "msg": msg})
        elif flag == "pass":
            out["region"].append({"loc": loc, "msg": msg})
        elif flag == "pass-missed" and msg.startswith("launch of "):
            out["eager"].append({"loc": loc, "msg": msg})
    return out


def sweep_file(args, src, logs, results, app, rel, omp_include):
    key = (app + "/" + rel).replace("/", "__")
    result_path = os.path.join(results, key + ".json")
    cwd = os.path.join(src, app)
    cmd = [args.clang] + compile_flags(args, src, app, rel, omp_include)
    old = None
    if os.path.exists(result_path) and not args.redo:
        old = json.load(open(result_path))
        if old["cmd"] != cmd:  # flags changed since: compile again
            old = None
        elif not args.redo_plugin:
            return old
    rec = {"app": app, "file": rel, "cwd": os.path.relpath(cwd, args.work),
           "cmd": cmd}
    if old is not None:
        rec["plain"] = old["plain"]
    else:
        plain_log = os.path.join(logs, key + ".plain.log")
        rec["plain"] = run_compile(cmd, cwd, plain_log, args)
        text = open(plain_log, encoding="utf-8", errors="replace").read()
        rec["plain"]["kind"] = failure_kind(rec["plain"], text)
        if rec["plain"]["rc"] != 0:
            rec["plain"]["error"] = first_error(text)
        else:
            os.remove(plain_log)
    if rec["plain"]["rc"] == 0:
        plug_log = os.path.join(logs, key + ".plugin.log")
        rec["plugin"] = run_compile(cmd + plugin_flags(args.plugin), cwd, plug_log, args)
        text = open(plug_log, encoding="utf-8", errors="replace").read()
        rec["plugin"]["kind"] = failure_kind(rec["plugin"], text)
        rec["remarks"] = parse_remarks(text)
        if rec["plugin"]["rc"] != 0:
            rec["plugin"]["error"] = first_error(text)
        else:
            os.remove(plug_log)
    tmp = result_path + ".tmp"
    json.dump(rec, open(tmp, "w"))
    os.replace(tmp, result_path)  # a killed sweep leaves no half-written result
    return rec


def main():
    args = parse_args()
    args.work = os.path.abspath(args.work)
    args.plugin = os.path.abspath(args.plugin)
    results, logs = os.path.join(args.work, "results"), os.path.join(args.work, "logs")
    for d in (results, logs):
        os.makedirs(d, exist_ok=True)
    if args.summary_only:
        write_summary(args.work, None)
        return 0
    if not os.path.exists(args.plugin):
        sys.exit("run_sweep: plugin not found at %s (cmake --build build --target pygraph)"
                 % args.plugin)
    start = time.monotonic()
    hec_commit = extract_sources(args.mirror, args.rev, args.work)
    src = os.path.join(args.work, "src")
    files, included = cuda_sources(src, args.only)
    if args.limit:
        files = files[:args.limit]
    with open(os.path.join(args.work, "files.list"), "w") as f:
        f.writelines("%s/%s\n" % af for af in files)
    with open(os.path.join(args.work, "included.list"), "w") as f:
        f.writelines("%s/%s\n" % af for af in included)
    omp_include = omp_include_dir(args.work)
    print("run_sweep: %d files of HeCBench %s, -j%d" % (len(files), hec_commit[:12], args.jobs),
          flush=True)
    done = 0
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(sweep_file, args, src, logs, results, app, rel, omp_include)
                   for app, rel in files]
        for fut in cf.as_completed(futures):
            rec = fut.result()
            done += 1
            bad = rec.get("plugin", {}).get("kind", "ok") != "ok"
            if bad or done % 25 == 0:
                print("[%d/%d] %s/%s plain=%s plugin=%s" % (
                    done, len(files), rec["app"], rec["file"], rec["plain"]["kind"],
                    rec.get("plugin", {}).get("kind", "-")), flush=True)
    elapsed = time.monotonic() - start
    meta = {"hecbench_commit": hec_commit, "jobs": args.jobs, "nice": args.nice,
            "elapsed_s": round(elapsed, 1), "plugin": args.plugin,
            "clang": subprocess.run([args.clang, "--version"], capture_output=True,
                                    text=True).stdout.splitlines()[0],
            "command": " ".join(shlex.quote(a) for a in sys.argv),
            "files_swept": len(files), "included_sources": len(included)}
    json.dump(meta, open(os.path.join(args.work, "meta.json"), "w"), indent=1)
    write_summary(args.work, meta)
    print("run_sweep: %d files in %.0f s; summary in %s" % (
        len(files), elapsed, os.path.join(args.work, "summary.md")))
    return 0


if __name__ == "__main__":
    sys.exit(main())
