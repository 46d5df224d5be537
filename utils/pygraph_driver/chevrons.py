"""nvcc's spaced launch chevrons (`k<< <g, b>> >(x)`), which clang rejects, without editing the user's files.

Contract: overlay(source, include_dirs, tmpdir) looks at the source and at
the C/C++/CUDA files directly inside the source's folder and the given
include folders (not their subfolders); each one holding a spaced launch gets
a closed-up copy in tmpdir, and the result is a clang VFS overlay file
(-ivfsoverlay) that makes clang read the copy under the original name, so
diagnostics, __FILE__, line numbers and -MD dependency lists still name the
user's file.  Returns None when no file needs it.  Only launches change: the
opening `<< <` and the closing `>> >(` of the same statement (no ';' between).
A spaced launch in a header further away is left as it is, and clang's error
names it.
"""
import json
import os
import re

SCANNED = (".cu", ".cuh", ".h", ".hh", ".hpp", ".hxx", ".inl", ".cpp", ".cc", ".cxx", ".c", ".inc")
SPACED_HINT = re.compile(r"<<\s+<|>>\s+>")
LAUNCH = re.compile(r"<<\s*<(?P<config>[^;]*?)>>\s*>(?P<paren>\s*\()", re.S)


def close_launches(text):
    """text with every launch's chevrons written `<<<` and `>>>(`."""
    def fix(m):
        return "<<<" + m.group("config") + ">>>" + m.group("paren")
    return LAUNCH.sub(fix, text)


def needs_fix(path):
    try:
        with open(path, encoding="latin-1") as f:
            text = f.read()
    except OSError:
        return None
    if not SPACED_HINT.search(text):
        return None
    fixed = close_launches(text)
    return fixed if fixed != text else None


def candidates(source, include_dirs):
    seen, out = set(), []
    files = [source]
    for folder in [os.path.dirname(source) or "."] + list(include_dirs):
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        files.extend(os.path.join(folder, n) for n in names if n.endswith(SCANNED))
    for path in files:
        real = os.path.realpath(path)
        if real not in seen and os.path.isfile(real):
            seen.add(real)
            out.append(os.path.abspath(path))
    return out


def overlay(source, include_dirs, tmpdir):
    """Path of a VFS overlay serving fixed copies, or None if nothing is spaced."""
    by_dir = {}
    for n, path in enumerate(candidates(source, include_dirs)):
        fixed = needs_fix(path)
        if fixed is None:
            continue
        copy = os.path.join(tmpdir, "chevrons-%d-%s" % (n, os.path.basename(path)))
        with open(copy, "w", encoding="latin-1") as f:
            f.write(fixed)
        for name in {path, os.path.realpath(path)}:  # as clang spells it, and through links
            by_dir.setdefault(os.path.dirname(name), []).append(
                {"type": "file", "name": os.path.basename(name), "external-contents": copy})
    if not by_dir:
        return None
    roots = [{"type": "directory", "name": d, "contents": c} for d, c in sorted(by_dir.items())]
    spec = {"version": 0, "case-sensitive": "true", "use-external-names": False, "roots": roots}
    path = os.path.join(tmpdir, "chevrons-overlay.yaml")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(spec, f, indent=1)
    return path
