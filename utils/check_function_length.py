#!/usr/bin/env python3
"""Fails when a C or C++ function in the given folders is longer than --max lines.

Functions are found by their braces, whatever the brace style: the runtime's
(signature, then '{' alone in column 0), the pass's (`int f(void) {` on one
line), C++ methods inside classes and namespaces, `extern "C" { ... }` blocks,
constructors with initializer lists.  Comments, string and character literals
and preprocessor lines are blanked first.  A '{' at file, namespace, class or
`extern "C"` level opens a function body when the text before it (back to the
previous ';', '{' or '}') ends in a parameter list, optionally followed by
qualifiers or a constructor's initializer list; everything up to the matching
'}' (lambdas, local structs) belongs to that function.  A function's length
runs from the first line of its signature to its closing brace.  A file whose
braces do not balance is reported as an error rather than silently skipped.

  utils/check_function_length.py [--max N] [--top K] DIR...
"""
import argparse
import pathlib
import re
import sys

SUFFIXES = {".c", ".h", ".cc", ".cpp", ".hpp"}
LITERAL_OR_COMMENT = re.compile(
    r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'', re.S)
PREPROCESSOR = re.compile(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", re.M)
ACCESS = re.compile(r"\b(?:public|private|protected)\s*:(?!:)")
QUALIFIERS = re.compile(r"(?:\s*(?:const|volatile|noexcept|override|final|mutable|&&|&"
                        r"|->\s*[\w:<>,\s\*&]+))*\s*$")
CONTAINER = re.compile(r'\b(?:namespace|struct|class|union|enum)\b|\bextern\s*""')
NOT_A_FUNCTION = {"if", "for", "while", "switch", "catch", "return", "sizeof", "do", "else",
                  "__attribute__", "alignas", "decltype", "defined"}


def blank(text):
    """Comments, literals and preprocessor lines as spaces (newlines kept)."""
    def spaces(m):
        s = m.group(0)
        keep = '""' if s[0] == '"' else "''" if s[0] == "'" else ""
        return keep + re.sub(r"[^\n]", " ", s[len(keep):])
    text = LITERAL_OR_COMMENT.sub(spaces, text)
    return PREPROCESSOR.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), text)


def top_level(header):
    """header with every (...) and <...>-free paren group's inside masked."""
    out, depth = [], 0
    for ch in header:
        if ch == "(":
            depth += 1
            out.append("(" if depth == 1 else " ")
        elif ch == ")":
            depth -= 1
            out.append(")" if depth == 0 else " ")
        else:
            out.append(ch if depth == 0 else " ")
    return "".join(out), depth


def function_name(header):
    """The function a '{' after `header` (access specifiers blanked) opens,
    or None when it opens no body."""
    flat, depth = top_level(header)
    if depth != 0 or "=" in flat.replace("==", ""):
        return None                        # an initializer, or not C at all
    close = flat.find(")")
    colon = re.search(r"(?<!:):(?!:)", flat[close + 1:]) if close >= 0 else None
    if colon:                              # constructor: drop the initializer list
        flat = flat[:close + 1 + colon.start()]
    if not re.search(r"\)" + QUALIFIERS.pattern, flat):
        return None
    flat = re.sub(QUALIFIERS.pattern, "", flat)
    m = re.search(r"([A-Za-z_~][\w:~]*)\s*\(\s*\)\s*$", flat)
    if not m or m.group(1).split("::")[-1] in NOT_A_FUNCTION:
        return None
    return m.group(1)


def function_spans(path):
    """Yields (name, first line, line count) per function; raises ValueError
    when the braces do not balance."""
    text = blank(path.read_text(encoding="utf-8", errors="replace"))
    line_at = [0] * (len(text) + 1)
    line = 1
    for i, ch in enumerate(text):
        line_at[i] = line
        line += ch == "\n"
    stack = []                             # (kind, start offset, name)
    boundary = 0                           # where the current header starts
    for i, ch in enumerate(text):
        inside_function = any(kind == "function" for kind, _, _ in stack)
        if ch == "{":
            if inside_function:
                stack.append(("block", i, None))
                continue
            header = ACCESS.sub(lambda m: " " * len(m.group(0)), text[boundary:i])
            name = function_name(header)
            if name:
                first = boundary + len(header) - len(header.lstrip())
                stack.append(("function", first, name))
            elif CONTAINER.search(top_level(header)[0]):
                stack.append(("container", i, None))
            else:
                stack.append(("other", i, None))
            boundary = i + 1
        elif ch == "}":
            if not stack:
                raise ValueError(f"unbalanced '}}' at line {line_at[i]}")
            kind, start, name = stack.pop()
            if kind == "function":
                yield name, line_at[start], line_at[i] - line_at[start] + 1
            if not inside_function or kind == "function":
                boundary = i + 1
        elif ch == ";" and not inside_function:
            boundary = i + 1
    if stack:
        raise ValueError(f"'{{' at line {line_at[stack[-1][1]]} never closed")


def main():
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max", type=int, default=80, help="longest allowed function (lines)")
    parser.add_argument("--top", type=int, default=5, help="longest functions to list")
    parser.add_argument("dirs", nargs="+", type=pathlib.Path)
    args = parser.parse_args()
    spans, unreadable = [], 0
    for folder in args.dirs:
        for path in sorted(p for p in folder.rglob("*") if p.suffix in SUFFIXES):
            try:
                spans += [(length, f"{path}:{first}", name)
                          for name, first, length in function_spans(path)]
            except ValueError as e:
                unreadable += 1
                print(f"error: {path}: {e}", file=sys.stderr)
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
    return 1 if too_long or unreadable else 0


if __name__ == "__main__":
    sys.exit(main())
