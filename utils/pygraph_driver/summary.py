"""The one-line summary of a compile, from the plugin's remarks saved in an optimization record.

The drivers add, to the host compile only,
    -fsave-optimization-record -foptimization-record-file=TMP -foptimization-record-passes=pygraph
which saves the remarks -Rpass=pygraph / -Rpass-missed=pygraph would print
(nothing is printed), and then print

    pygraph: SRC: R graph regions (N launch sites); E launch sites left eager (why: FLAG)

Counts: R = `Region` remarks (one per region segment), N = the launch sites
their texts report, E = missed remarks of a launch that stays eager, FLAG
the driver's spelling of -Rpass-missed=pygraph.
PYGRAPH_QUIET=1 (or on/true/yes) turns the line off.
"""
import os
import re

from . import plugin_env

RECORD_FLAGS = ("-fsave-optimization-record", "-foptimization-record-file=",
                "-foptimization-record-passes=")
SITES = re.compile(r"(\d+) launch sites?\b")
WHY_FLAG = "-Rpass-missed=pygraph"


def quiet():
    return os.environ.get("PYGRAPH_QUIET", "").strip().lower() in ("1", "on", "true", "yes")


def record_flags(path, offload):
    """Flags that save the host compile's pygraph remarks into path (None:
    clang's own name, <output stem>.opt.yaml)."""
    flags = (["-fsave-optimization-record"] + (["-foptimization-record-file=" + path] if path else [])
             + ["-foptimization-record-passes=pygraph"])
    if not offload:
        return flags
    out = []
    for f in flags:
        out.extend(["-Xarch_host", f])
    return out


def user_saves_record(args):
    """The user's own -fsave-optimization-record: theirs is left alone, no summary."""
    return any(a.startswith(RECORD_FLAGS) or a.startswith("-fsave-optimization-record=")
               for a in args)


def read_remarks(path):
    """(kind, name, text) of every remark in an LLVM YAML optimization record."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            docs = f.read().split("\n--- ")
    except OSError:
        return []
    remarks = []
    for doc in docs:
        kind = re.match(r"(?:--- )?!(\w+)", doc.lstrip("-\n "))
        name = re.search(r"^Name:\s+(\S+)", doc, re.M)
        if kind and name:
            remarks.append((kind.group(1), name.group(1), strings(doc)))
    return remarks


def strings(doc):
    """The String: arguments of one remark, joined (single-quoted YAML scalars, maybe folded)."""
    out = []
    for m in re.finditer(r"- String:\s+'((?:[^']|'')*)'", doc, re.S):
        out.append(re.sub(r"\s*\n\s*", " ", m.group(1)).replace("''", "'"))
    for m in re.finditer(r"- String:\s+\"((?:[^\"\\]|\\.)*)\"", doc, re.S):
        out.append(m.group(1))
    return "".join(out)


def counts(remarks):
    regions = sites = eager = 0
    for kind, name, text in remarks:
        if kind == "Passed" and name == "Region":
            regions += 1
            m = SITES.search(text)
            sites += int(m.group(1)) if m else 0
        elif kind == "Missed" and (name == "Eager" or "stays eager" in text):
            eager += 1
    return regions, sites, eager


def line(source, record_path, plugin_args=(), why=WHY_FLAG):
    """The summary line of one compile (without a newline); why: how to ask
    for the missed remarks on this driver's command line.  A disabled plugin
    saves no record (record_path None) and says what disabled it."""
    if plugin_env.disabled(plugin_args):
        return "pygraph: %s: plugin disabled (%s)" % (source, plugin_env.disabled_by())
    regions, sites, eager = counts(read_remarks(record_path))
    if regions == 0 and eager == 0:
        return "pygraph: %s: no kernel launches" % source
    text = "pygraph: %s: %d graph region%s (%d launch site%s)" % (
        source, regions, "" if regions == 1 else "s", sites, "" if sites == 1 else "s")
    if eager:
        text += "; %d launch site%s left eager (why: %s)" % (eager, "" if eager == 1 else "s", why)
    else:
        text += "; none left eager"
    if any(a == "-fplugin-arg-pygraph-analyze-only" for a in plugin_args):
        text += " [analyze-only: nothing instrumented]"
    return text
