"""Response files: @FILE (clang, gcc, CMake) and nvcc's --options-file/-optf FILE.

Contract: the file's words replace the reference, split as a POSIX shell
splits them (quotes and backslashes honoured, no expansion); files may name
further response files; a cycle or an unreadable file is an error naming it.
"""
import os
import shlex

from .errors import DriverError

OPTIONS_FILE = ("--options-file", "-options-file", "-optf", "--optf")


def expand(args, seen=()):
    out = []
    i = 0
    while i < len(args):
        arg = args[i]
        path = None
        if arg.startswith("@") and len(arg) > 1:
            path = arg[1:]
        elif arg in OPTIONS_FILE:
            if i + 1 >= len(args):
                raise DriverError("%s needs a file name" % arg)
            i += 1
            path = args[i]
        elif arg.split("=", 1)[0] in OPTIONS_FILE and "=" in arg:
            path = arg.split("=", 1)[1]
        if path is None:
            out.append(arg)
        else:
            out.extend(read(path, seen))
        i += 1
    return out


def read(path, seen):
    real = os.path.realpath(path)
    if real in seen:
        raise DriverError("response file %s includes itself" % path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise DriverError("cannot read response file %s: %s" % (path, e.strerror))
    try:
        words = shlex.split(text, comments=False, posix=True)
    except ValueError as e:
        raise DriverError("response file %s: %s" % (path, e))
    return expand(words, tuple(seen) + (real,))
