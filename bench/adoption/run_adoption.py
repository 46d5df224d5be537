#!/usr/bin/env python3
"""Compile-only adoption sweep: HeCBench's own Makefiles, built with nvcc and with pygraph-nvcc.

For every src/*-cuda application of HeCBench (or a deterministic sample) the
application's Makefile is run twice, each in its own extracted copy of src/:

  nvcc     make CC=nvcc ARCH=<90 in the Makefile's own form>     (the baseline)
  pygraph  make CC=pygraph-nvcc ARCH=<same>                      (nothing else changed)

The pygraph build runs with nvcc removed from PATH, so a Makefile that does
not compile through $(CC) fails visibly instead of passing with nvcc.  Each
build has a time limit; results are kept per application and phase (one JSON
each), so an interrupted sweep resumes.  results.md is written by
adoption_summary.py from those files.  See README.md in this folder.
"""
import argparse
import concurrent.futures as cf
import json
import os
import re
import signal
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
DEFAULT_MIRROR = "/work/.mirror/zjin-lcf+HeCBench/repo"
ARCH_LINE = re.compile(r"^\s*ARCH\s*[:?]?=\s*(\S+)", re.M)
SUMMARY_LINE = re.compile(r"^pygraph: (?P<file>.+?): (?P<body>.*)$", re.M)


def parse_args():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("-j", "--jobs", type=int, default=2, help="applications built at once")
    p.add_argument("--mirror", default=DEFAULT_MIRROR, help="HeCBench git directory (bare)")
    p.add_argument("--rev", default="HEAD", help="HeCBench revision (default HEAD)")
    p.add_argument("--work", default=os.path.join(REPO, "build", "adoption"),
                   help="extracted sources, per-app results and logs (default build/adoption)")
    p.add_argument("--bin", default=os.path.join(REPO, "build", "adoption", "prefix", "bin"),
                   help="folder holding pygraph-nvcc (an installed prefix's bin)")
    p.add_argument("--phase", choices=("nvcc", "pygraph", "both"), default="both")
    p.add_argument("--timeout", type=int, default=900, help="seconds per build (default 900)")
    p.add_argument("--nice", type=int, default=10, help="run make under nice -n N")
    p.add_argument("--only", default="", help="regex: only applications whose name matches")
    p.add_argument("--sample", default="",
                   help="K/M: only apps with crc32(name) %% M < K (deterministic sample)")
    p.add_argument("--redo", action="store_true", help="rebuild even where a result exists")
    return p.parse_args()


# ---------------------------------------------------------------- sources

def commit_of(mirror, rev):
    return subprocess.check_output(["git", "--git-dir", mirror, "rev-parse", rev + "^{commit}"],
                                   text=True).strip()


def extract_src(mirror, commit, dest):
    """git archive of src/ into dest/src (once per commit); blobs the mirror
    lacks (large data files) are left out."""
    stamp = os.path.join(dest, "src.commit")
    if os.path.exists(stamp) and open(stamp).read().strip() == commit:
        return
    subprocess.run(["rm", "-rf", os.path.join(dest, "src")], check=True)
    os.makedirs(dest, exist_ok=True)
    tree = subprocess.check_output(["git", "--git-dir", mirror, "ls-tree", "-r", commit, "src"],
                                   text=True)
    entries = [line.split("\t", 1) for line in tree.splitlines()]
    shas = "\n".join(meta.split()[2] for meta, _ in entries) + "\n"
    check = subprocess.run(["git", "--git-dir", mirror, "cat-file", "--batch-check"], input=shas,
                           capture_output=True, text=True, check=True).stdout.splitlines()
    excludes = [":(exclude)" + path for (_, path), c in zip(entries, check) if c.endswith(" missing")]
    archive = subprocess.Popen(["git", "--git-dir", mirror, "archive", commit, "--", "src"] + excludes,
                               stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", dest], stdin=archive.stdout, check=True)
    archive.wait()
    with open(stamp, "w") as f:
        f.write(commit + "\n")


def applications(src, only, sample):
    apps = sorted(a for a in os.listdir(src) if a.endswith("-cuda")
                  and os.path.isfile(os.path.join(src, a, "Makefile")))
    if only:
        apps = [a for a in apps if re.search(only, a)]
    if sample:
        k, m = (int(x) for x in sample.split("/"))
        apps = [a for a in apps if zlib.crc32(a.encode()) % m < k]
    return apps


def arch_value(makefile):
    """ARCH=... in the Makefile's own form (sm_90 or 90), or None if it has none."""
    m = ARCH_LINE.search(open(makefile, encoding="latin-1").read())
    if not m:
        return None
    return "90" if re.fullmatch(r"\d+", m.group(1)) else "sm_90"


# ---------------------------------------------------------------- builds

def fresh_copy(app, tree, pristine):
    """The application's folder as extracted, so every build starts clean."""
    appdir = os.path.join(tree, "src", app)
    subprocess.run(["rm", "-rf", appdir], check=True)
    subprocess.run(["cp", "-a", os.path.join(pristine, "src", app), appdir], check=True)
    return appdir


def build(app, phase, tree, args):
    """One make run in a fresh copy; returns the result dict (also saved as JSON)."""
    appdir = fresh_copy(app, tree, os.path.join(args.work, "pristine"))
    arch = arch_value(os.path.join(appdir, "Makefile"))
    cc = "nvcc" if phase == "nvcc" else "pygraph-nvcc"
    cmd = ["make", "CC=" + cc] + (["ARCH=" + arch] if arch else [])
    env = dict(os.environ)
    if phase == "pygraph":
        path = [p for p in env["PATH"].split(os.pathsep) if not os.path.exists(os.path.join(p, "nvcc"))]
        env["PATH"] = os.pathsep.join([os.path.abspath(args.bin)] + path)
        env.pop("PYGRAPH_QUIET", None)
    start = time.time()
    rc, out = run_limited(["nice", "-n", str(args.nice)] + cmd, appdir, env, args.timeout)
    result = {"app": app, "phase": phase, "command": " ".join(cmd), "rc": rc,
              "seconds": round(time.time() - start, 1), "timed_out": rc is None}
    result.update(classify(out, rc))
    logdir = os.path.join(args.work, "logs", phase)
    os.makedirs(logdir, exist_ok=True)
    with open(os.path.join(logdir, app + ".log"), "w") as f:
        f.write(out)
    return result


def run_limited(cmd, cwd, env, timeout):
    """Runs cmd in its own process group; on timeout the group is killed: (None, output)."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                            start_new_session=True)
    try:
        out, _ = proc.communicate(timeout=timeout)
        return proc.returncode, out.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, _ = proc.communicate()
        return None, out.decode("utf-8", "replace") + "\n[adoption: killed after %d s]\n" % timeout


def classify(out, rc):
    """The first error line of a failed build and the driver's summary lines."""
    summaries = [m.group(0) for m in SUMMARY_LINE.finditer(out)]
    first_error = ""
    if rc != 0:
        for line in out.splitlines():
            if re.search(r"error|fatal|not found|No such file|undefined reference|Error \d", line):
                first_error = line.strip()[:300]
                break
    return {"summaries": summaries, "first_error": first_error}


def run_phase(phase, apps, args, commit):
    tree = os.path.join(args.work, phase)
    extract_src(args.mirror, commit, tree)   # siblings an app reaches into (../include, ...)
    resdir = os.path.join(args.work, "results", phase)
    os.makedirs(resdir, exist_ok=True)
    todo = [a for a in apps if args.redo or not os.path.exists(os.path.join(resdir, a + ".json"))]
    if phase == "pygraph":  # only where the baseline built
        todo = [a for a in todo if nvcc_built(args.work, a)]
    print("%s: %d applications to build" % (phase, len(todo)), flush=True)
    with cf.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = {pool.submit(build, a, phase, tree, args): a for a in todo}
        for n, fut in enumerate(cf.as_completed(futures), 1):
            r = fut.result()
            with open(os.path.join(resdir, r["app"] + ".json"), "w") as f:
                json.dump(r, f, indent=1)
            status = "ok" if r["rc"] == 0 else ("timeout" if r["timed_out"] else "FAIL")
            print("[%d/%d] %s %s %s (%.0f s)" % (n, len(todo), phase, r["app"], status,
                                                r["seconds"]), flush=True)


def nvcc_built(work, app):
    path = os.path.join(work, "results", "nvcc", app + ".json")
    return os.path.exists(path) and json.load(open(path))["rc"] == 0


def main():
    args = parse_args()
    args.work = os.path.abspath(args.work)
    commit = commit_of(args.mirror, args.rev)
    os.makedirs(args.work, exist_ok=True)
    with open(os.path.join(args.work, "hecbench.commit"), "w") as f:
        f.write(commit + "\n")
    extract_src(args.mirror, commit, os.path.join(args.work, "pristine"))
    apps = applications(os.path.join(args.work, "pristine", "src"), args.only, args.sample)
    for phase in ("nvcc", "pygraph"):
        if args.phase in (phase, "both"):
            if phase == "pygraph" and not os.access(os.path.join(args.bin, "pygraph-nvcc"), os.X_OK):
                sys.exit("run_adoption: no pygraph-nvcc in %s (cmake --install build --prefix ...)"
                         % args.bin)
            run_phase(phase, apps, args, commit)


if __name__ == "__main__":
    main()
