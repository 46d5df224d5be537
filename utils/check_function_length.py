#!/usr/bin/env python3
"""Fails when a C function in the given folders is longer than --max lines.

The runtime's style puts a function's opening brace alone in column 0 and its
closing brace alone in column 0 (as in every file under runtime/src), so a
function is the text from its signature's first line to that closing brace.
A file that breaks the style is reported rather than silently skipped.

  utils/check_function_length.py [--max N] [--top K] DIR...
"""
import argparse
import pathlib
import re
import sys

SIGNATURE_START = re.compile(r"^[A-Za-z_][\w \t\*]*\b([A-Za-z_]\w*)\s*\(")


def function_spans(path):
    """Yields (name, first line, line count) for each function in path."""
    lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    start = name = None
    in_body = False
    for number, line in enumerate(lines, 1):
        if in_body:
            if line.startswith("}"):
                yield name, start, number - start + 1
                start = name = None
                in_body = False
            continue
        match = SIGNATURE_START.match(line)
        if match and not line.rstrip().endswith(";") and "=" not in line.split("(")[0]:
            start, name = number, match.group(1)
        elif line.startswith("{") and name is not None:
            in_body = True
        elif line.strip() == "" or line.rstrip().endswith(";"):
            start = name = None


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max", type=int, default=80, help="longest allowed function (lines)")
    parser.add_argument("--top", type=int, default=5, help="longest functions to list")
    parser.add_argument("dirs", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    spans = []
    for folder in args.dirs:
        for path in sorted(folder.rglob("*.[ch]")):
            spans += [(length, f"{path}:{first}", name)
                      for name, first, length in function_spans(path)]
    if not spans:
        print("check_function_length: no functions found", file=sys.stderr)
        return 2
    spans.sort(reverse=True)
    too_long = [s for s in spans if s[0] > args.max]
    for length, where, name in spans[:args.top]:
        print(f"{length:5d} lines  {name}  ({where})")
    for length, where, name in too_long:
        print(f"error: {where}: {name} is {length} lines (max {args.max})", file=sys.stderr)
    print(f"{len(spans)} functions, longest {spans[0][0]} lines, {len(too_long)} over {args.max}")
    return 1 if too_long else 0


if __name__ == "__main__":
    sys.exit(main())
