#!/usr/bin/env python3
"""Every figure the README quotes appears in a results file.

  utils/check_claims.py [--known-missing FIG,...] [-v] README RESULTS...
  utils/check_claims.py --self-test

Figures are read from the README's prose (code blocks left out): speedups
and ratios (5.48x, x1.288, 0.88-0.96x), percentages (62.5%, +5.8%), times
(3.43 ms, 854 to 1306 ms) and counts "N of M" ("24 of the 25").  A figure
is found when a results file holds the same number with the same unit
(equal values: 39% matches -39.0%, 1.2x matches 1.20x), or bare on a line
that writes the unit after it ("graph 3.82 vs plain 3.43 ms"); a ratio may
sit bare in a table cell.  Both ends of a range must be in one section,
both numbers of "N of M" on one line of prose.  -v says where
each figure was found: the file and the "## " section (results files list
their newest run first), so a figure that only an older run backs shows.

--known-missing names figures known to be missing (a README being
rewritten): they do not fail the check, but one that is found, or no longer
quoted, does (drop it from the list).  Exit status 1 on any failure.
"""
import argparse
import decimal
import pathlib
import re
import sys
import tempfile

NUM = r"\d+(?:\.\d+)?"
FIGURE = re.compile(
    r"(?<![\w.`/-])(?:(?P<xpre>x)(?P<xv>%(n)s)\b"
    r"|(?P<lo>%(n)s)(?:-(?P<hi>%(n)s))?(?P<unit>x\b|%%|\s?(?:ms|us|µs)\b)"
    r"|(?P<a>%(n)s) to (?P<b>%(n)s) (?P<tunit>ms|us|µs)\b"
    r"|(?P<n1>\d+) of (?:the )?(?P<n2>\d+)\b)" % {"n": NUM})
TOKEN = re.compile(r"(?<![\w.])[+-]?(?P<v>%s)(?P<unit>x\b|%%|\s?(?:ms|us|µs)\b)?"
                   r"|(?<![\w.])x(?P<xv>%s)\b" % (NUM, NUM))


def value(text):
    return decimal.Decimal(text).normalize()


def unit_of(text):
    text = (text or "").strip()
    return "us" if text == "µs" else text


def readme_figures(text):
    """[(figure as written, unit, [values], line)] of the README's prose."""
    text = re.sub(r"```.*?```", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    figures = []
    for number, line in enumerate(text.splitlines(), 1):
        for m in FIGURE.finditer(line):
            g = m.groupdict()
            if g["xv"]:
                figures.append((m.group(0), "x", [value(g["xv"])], number))
            elif g["lo"]:
                vals = [value(g["lo"])] + ([value(g["hi"])] if g["hi"] else [])
                figures.append((m.group(0), unit_of(g["unit"]), vals, number))
            elif g["a"]:
                figures.append((m.group(0), unit_of(g["tunit"]), [value(g["a"]), value(g["b"])],
                                number))
            else:
                figures.append((m.group(0), "of", [int(g["n1"]), int(g["n2"])], number))
    return figures


def results_index(files):
    """{key: [(file, section, line)]} of every number in the results files: key
    (unit, value) for a number written with its unit, ("~" + unit, value)
    for a bare number the same line writes that unit after ("3.82 vs 3.43
    ms"), ("cell", value) for a bare number in a table cell, ("of", n, m)
    for two whole numbers on one line."""
    index = {}
    for path in files:
        section = "(before the first section)"
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            if line.startswith("## "):
                section = line[3:].strip()
            where = (str(path), section, number)
            keys = set()
            for m in TOKEN.finditer(line):
                v = value(m.group("xv") or m.group("v"))
                unit = "x" if m.group("xv") else unit_of(m.group("unit"))
                keys.add((unit, v))
                if not unit:
                    later = {unit_of(u.group("unit")) for u in TOKEN.finditer(line, m.end())
                             if u.group("unit")}
                    keys |= {("~" + u, v) for u in later}
            if line.lstrip().startswith("|"):
                keys |= {("cell", value(c.strip())) for c in line.split("|")[1:-1]
                         if re.fullmatch(r"\s*%s\s*" % NUM, c)}
            if not line.lstrip().startswith("|"):
                ints = sorted({int(t) for t in re.findall(r"[\w.,]+", line) if t.isdigit()})
                keys |= {("of", a, b) for a in ints for b in ints if a < b}
            for k in keys:
                index.setdefault(k, []).append(where)
    return index


def where_found(figure, index):
    """(file, section, line) where a results file holds a figure (a range:
    both ends in one section, as a table column), or None."""
    _, unit, vals, _ = figure
    if unit == "of":
        return (index.get(("of", vals[0], vals[1])) or [None])[0]
    found = []
    for v in vals:
        found.append(index.get((unit, v), []) + index.get(("~" + unit, v), []) + (
            index.get(("cell", v), []) if unit == "x" else []))
    sections = set.intersection(*({w[:2] for w in hits} for hits in found))
    places = sorted(w for w in found[0] if w[:2] in sections)
    return places[0] if places else None


def check(readme_text, result_files, known_missing, verbose):
    """Failure messages (and, verbose, where each figure was found)."""
    index = results_index(result_files)
    failures, quoted = [], set()
    for fig in readme_figures(readme_text):
        quoted.add(fig[0])
        places = where_found(fig, index)
        if places and fig[0] in known_missing:
            failures.append("line %d: '%s' is found now: drop it from --known-missing"
                            % (fig[3], fig[0]))
        elif not places and fig[0] not in known_missing:
            failures.append("line %d: '%s' is in no results file" % (fig[3], fig[0]))
        if verbose:
            print("line %d: %-14s %s" % (fig[3], fig[0], "%s:%d (%.60s)" % (
                places[0], places[2], places[1]) if places else "NOT FOUND"))
    failures += ["'%s' is no longer quoted: drop it from --known-missing" % k
                 for k in sorted(known_missing - quoted)]
    return failures


def self_test():
    problems = []
    with tempfile.TemporaryDirectory() as d:
        results = pathlib.Path(d) / "results.md"
        results.write_text("## newest\n| tiny_chain | 3.07x | -39.0% | 0.88 |\n"
                           "spread from 854 to 1306 ms; x1.288; 24 of 25 finish; 935/2284\n")
        good = ("tiny chain **3.07x** (39% faster), 0.88-0.88x, 854 to 1306 ms, adam x1.288,\n"
                "24 of the 25 apps, 935 of 2284 sites\n```\nnot 9.99x\n```\n")
        if check(good, [results], set(), False):
            problems.append("figures that are there were reported: %s"
                            % check(good, [results], set(), False))
        for bad in ("5.48x", "62.5%", "x1.201", "0.88-0.96x", "854 to 1307 ms", "14 of 15"):
            if len(check("headline %s here\n" % bad, [results], set(), False)) != 1:
                problems.append("'%s', in no results file, was not reported" % bad)
        split = pathlib.Path(d) / "split.md"
        split.write_text("## a\n| 0.5 |\n## b\n| 0.7 |\n| 14 | 15 |\n")
        if len(check("0.5-0.7x\n14 of 15\n", [split], set(), False)) != 2:
            problems.append("a range across sections, or N of M from a table row, passed")
        if check("headline 5.48x\n", [results], {"5.48x"}, False):
            problems.append("a known-missing figure failed")
        if len(check("headline 3.07x\n", [results], {"3.07x", "1.0x"}, False)) != 2:
            problems.append("a known-missing figure found, or no longer quoted, passed")
    for p in problems:
        print("SELFTEST FAIL: " + p)
    print("self-test: %s" % ("failed" if problems else "ok"))
    return 1 if problems else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--self-test", action="store_true")
    ap.add_argument("--known-missing", default="", help="comma-separated figures, as written")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("files", nargs="*", type=pathlib.Path)
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    if len(args.files) < 2:
        ap.error("README and at least one results file")
    known = {k.strip() for k in args.known_missing.split(",") if k.strip()}
    failures = check(args.files[0].read_text(encoding="utf-8"), args.files[1:], known,
                     args.verbose)
    for f in failures:
        print("FAIL: " + f)
    n = len(readme_figures(args.files[0].read_text(encoding="utf-8")))
    print("%d figures, %d failures" % (n, len(failures)))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
