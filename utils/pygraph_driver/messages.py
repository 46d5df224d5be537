"""Warnings, notes and errors of the drivers, in clang's `prog: kind: text` form, on standard error."""
import sys

from . import summary


def warning(prog, text):
    print("%s: warning: %s" % (prog, text), file=sys.stderr)


def note(prog, text):
    """Notes are informational: PYGRAPH_QUIET turns them off with the summary line."""
    if not summary.quiet():
        print("%s: note: %s" % (prog, text), file=sys.stderr)


def error(prog, text):
    print("%s: error: %s" % (prog, text), file=sys.stderr)
