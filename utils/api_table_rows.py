#!/usr/bin/env python3
"""The CUDA API table (pass/core/cuda_api_table.c) held row by row by
test/lit/api-table.cu.

  api_table_rows.py coverage TABLE TEST
      every row of TABLE (PTSZ/DRIVER_PTSZ/OWN rows count as the name and its
      _ptsz twin, PTDS rows as the name and its _ptds twin; kPrefixes rows as a family, covered by a ROW of a name in
      the family that is not a row itself) has a ROW or ROWV in TEST.  A line
      of the table this script cannot read is an error, not a skipped row.
  api_table_rows.py behaviour TEST REMARKS IR
      each ROW's hand-written expectation against what the pass did (clang's
      -Rpass/-Rpass-missed output and the instrumented IR, see TEST).
  api_table_rows.py selftest TABLE TEST
      both checks reject what they must: a row added to a copy of TABLE
      without a test, and remarks/IR where a barrier formed a region, was a
      call the table does not list, or a deferred call was not routed.

Exit status 1 on any failure, listing every one.
"""
import pathlib
import re
import sys

ROW = re.compile(r"^ROW\((\w+),\s*(\w+),")
ROWV = re.compile(r"^ROWV\((\w+),\s*(\w+),\s*(\w+),")
EXPECTATIONS = ("barrier", "observed", "unknown", "deferred", "harmless", "launch")
TWINNED = re.compile(r'^(PTSZ|DRIVER_PTSZ|OWN|PTDS)\("(\w+)"')
PLAIN = re.compile(r'^\{"(\w+)"')
REMARK = re.compile(r"^[^:\s]+:(\d+):\d+: remark: (.*?)(?: \[-Rpass[-\w]*=pygraph\])?$")
FORMED = re.compile(r"^formed graph region in '(\w+)': .*, (\d+) launch sites?$")
DEFINE = re.compile(r"^define [^@]*@([\w.$]+)\(")
CALL = re.compile(r"\b(?:call|invoke)\b[^@]*@([\w.$]+)\(")


def table_rows(text):
    """(exact names, prefix families, errors) of the table's source text."""
    names, prefixes, errors = [], [], []
    for array, out in (("kTable", names), ("kPrefixes", prefixes)):
        match = re.search(r"\b%s\[\]\s*=\s*\{(.*?)\n\};" % array, text, re.S)
        if not match:
            errors.append("table: no array %s" % array)
            continue
        for line in match.group(1).splitlines():
            line = line.strip()
            twinned, plain = TWINNED.match(line), PLAIN.match(line)
            if twinned:
                twin = "_ptds" if twinned.group(1) == "PTDS" else "_ptsz"
                out += [twinned.group(2), twinned.group(2) + twin]
            elif plain:
                out.append(plain.group(1))
            elif line and not line.startswith(("/*", "*", "//", '"')):
                errors.append("table: cannot read row: %s" % line)
    return names, prefixes, errors


def test_rows(text):
    """[(line, expect, api, function name)] of the test's ROW/ROWV lines."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        v, r = ROWV.match(line), ROW.match(line)
        if v:
            rows.append((number, v.group(1), v.group(2),
                         "%s__%s__%s" % (v.group(1), v.group(2), v.group(3))))
        elif r:
            rows.append((number, r.group(1), r.group(2), "%s__%s" % (r.group(1), r.group(2))))
    return rows


def coverage(table_text, test_text):
    names, prefixes, errors = table_rows(table_text)
    tested = {api for _, _, api, _ in test_rows(test_text)}
    errors += ["row '%s' has no ROW in the test" % n for n in names if n not in tested]
    for p in prefixes:
        if not any(api.startswith(p) and api not in names for api in tested):
            errors.append("family '%s*' has no ROW of a member in the test" % p)
    return errors, len(names) + len(prefixes)


def remarks_by_line(text):
    """{line: [remark text]} and {function: launch sites of its region}."""
    at, formed = {}, {}
    for line in text.splitlines():
        m = REMARK.match(line)
        if not m:
            continue
        at.setdefault(int(m.group(1)), []).append(m.group(2))
        f = FORMED.match(m.group(2))
        if f:
            formed[f.group(1)] = formed.get(f.group(1), []) + [int(f.group(2))]
    return at, formed


def calls_by_function(ir):
    """{function: set of called symbols} of the IR's definitions."""
    calls, current = {}, None
    for line in ir.splitlines():
        d = DEFINE.match(line)
        if d:
            current = calls.setdefault(d.group(1), set())
        elif line.startswith("}"):
            current = None
        elif current is not None:
            current.update(CALL.findall(line))
    return calls


def check_row(row, at, formed, calls):
    """The ways one row breaks its expectation, as messages."""
    line, expect, api, fn = row
    if expect not in EXPECTATIONS:
        return ["unknown expectation '%s'" % expect]
    k2 = [t for t in at.get(line, []) if t.startswith("launch of 'k2(float*)' stays eager")]
    unknown = any("CUDA call '%s' that pygraph does not know" % api in t for t in k2)
    routed = "__pygraph_" + api
    got = calls.get(fn)
    if got is None:
        return ["no function %s in the IR" % fn]
    wanted_sites = {"deferred": 2, "harmless": 2, "launch": 3}.get(expect)
    errors = []
    if wanted_sites is None:
        if fn in formed:
            errors.append("formed a region (%s launch sites)" % formed[fn])
        if not k2:
            errors.append("the launch after the call does not stay eager")
        elif unknown != (expect == "unknown"):
            errors.append("the call is %s" % ("not a row of the table" if unknown
                                              else "a row of the table"))
    elif formed.get(fn) != [wanted_sites]:
        errors.append("regions of %s launch sites, not one of %d" % (formed.get(fn), wanted_sites))
    if expect in ("deferred", "launch", "observed") and (routed not in got or api in got):
        errors.append("the call is not routed to %s" % routed)
    if expect in ("barrier", "unknown", "harmless") and (api not in got or routed in got):
        errors.append("the call is not left as a call of %s" % api)
    return errors


def behaviour(test_text, remark_text, ir_text):
    at, formed = remarks_by_line(remark_text)
    calls = calls_by_function(ir_text)
    rows = test_rows(test_text)
    errors = []
    for row in rows:
        errors += ["line %d %s (%s): %s" % (row[0], row[3], row[1], e)
                   for e in check_row(row, at, formed, calls)]
    if not rows:
        errors.append("no ROW in the test")
    return errors, len(rows)


def report(errors, count, what):
    for e in errors:
        print("FAIL: " + e)
    print("%d %s, %d failure%s" % (count, what, len(errors), "" if len(errors) == 1 else "s"))
    return 1 if errors else 0


def selftest(table_text, test_text):
    """Each check must reject an input made to fail it."""
    problems = []
    errors, _ = coverage(table_text, test_text)
    if errors:
        problems.append("the real table and test do not pass: %s" % errors)
    added = table_text.replace("static const pg_api_entry kTable[] = {",
                               "static const pg_api_entry kTable[] = {\n"
                               '    PTSZ("cudaSelfTestRow", PG_API_SYNC, "x"),', 1)
    errors, _ = coverage(added, test_text)
    if errors != ["row 'cudaSelfTestRow' has no ROW in the test",
                  "row 'cudaSelfTestRow_ptsz' has no ROW in the test"]:
        problems.append("a row without a test was not reported alone: %s" % errors)
    errors, _ = coverage(added.replace('PTSZ("cudaSelfTestRow"', 'PTDS("cudaSelfTestRow"'),
                         test_text)
    if errors != ["row 'cudaSelfTestRow' has no ROW in the test",
                  "row 'cudaSelfTestRow_ptds' has no ROW in the test"]:
        problems.append("a PTDS row's _ptds twin was not required: %s" % errors)
    errors, _ = coverage(added.replace('PTSZ("cudaSelfTestRow"', 'PTQQ("cudaSelfTestRow"'),
                         test_text)
    if not any("cannot read row" in e for e in errors):
        problems.append("an unreadable row was not reported: %s" % errors)
    test = "ROW(barrier, cudaSync, x)\nROW(deferred, cudaOp, x)\n"
    ir = ("define void @barrier__cudaSync(\n  call i32 @cudaSync(\n}\n"
          "define void @deferred__cudaOp(\n  call i32 @__pygraph_cudaOp(\n}\n")
    good = ("t.cu:1:1: remark: launch of 'k2(float*)' stays eager: only 1 launch site\n"
            "t.cu:2:1: remark: formed graph region in 'deferred__cudaOp': loop iteration"
            " (lines 2-2), segment 0 of 1, 2 launch sites [-Rpass=pygraph]\n")
    if behaviour(test, good, ir)[0]:
        problems.append("behaviour rejects a good run: %s" % behaviour(test, good, ir)[0])
    merged = good + ("t.cu:1:1: remark: formed graph region in 'barrier__cudaSync': loop"
                     " iteration (lines 1-1), segment 0 of 1, 2 launch sites\n")
    if len(behaviour(test, merged, ir)[0]) != 1:
        problems.append("a barrier that formed a region was not reported")
    if len(behaviour(test, good, ir.replace("@__pygraph_cudaOp", "@cudaOp"))[0]) != 1:
        problems.append("a deferred call left unrouted was not reported")
    dropped = good.replace("launch site\n", "launch site after CUDA call 'cudaSync' that"
                           " pygraph does not know at t.cu:1\n", 1)
    if len(behaviour(test, dropped, ir)[0]) != 1:
        problems.append("a barrier row no longer in the table was not reported")
    for p in problems:
        print("SELFTEST FAIL: " + p)
    print("selftest: %s" % ("failed" if problems else "the checks reject what they must"))
    return 1 if problems else 0


def main(argv):
    read = lambda p: pathlib.Path(p).read_text(encoding="utf-8", errors="replace")
    if len(argv) == 4 and argv[1] == "coverage":
        return report(*coverage(read(argv[2]), read(argv[3])), "table rows")
    if len(argv) == 5 and argv[1] == "behaviour":
        return report(*behaviour(read(argv[2]), read(argv[3]), read(argv[4])), "rows tested")
    if len(argv) == 4 and argv[1] == "selftest":
        return selftest(read(argv[2]), read(argv[3]))
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
