"""Runs a driver's jobs in order: dry run, verbose echo, summary lines, first failure stops.

Contract: run(jobs, prog, dry_run, verbose, why) returns the exit status to exit
with: 0, or the first failing command's status (the commands after it do not
run).  A dry run prints every command, shell-quoted, one a line, on standard
output and runs nothing; -v prints each command on standard error before it
runs.  A job with a source prints its summary line on standard error after
it succeeds.
"""
import shlex
import subprocess
import sys

from . import summary


class Job:
    """One command; source is set when it prints a summary line, record where
    that line is read from (None: a disabled plugin, which saves none)."""

    def __init__(self, argv, source=None, record=None, plugin_args=()):
        self.argv = argv
        self.source = source
        self.record = record
        self.plugin_args = plugin_args


def run(jobs, prog, dry_run=False, verbose=False, why=summary.WHY_FLAG):
    for job in jobs:
        text = " ".join(shlex.quote(a) for a in job.argv)
        if dry_run:
            print(text)
            continue
        if verbose:
            print("#$ " + text, file=sys.stderr, flush=True)
        try:
            rc = subprocess.call(job.argv)
        except OSError as e:
            print("%s: error: cannot run %s: %s" % (prog, job.argv[0], e.strerror), file=sys.stderr)
            return 127
        if rc != 0:
            return rc
        if job.source:
            print(summary.line(job.source, job.record, job.plugin_args, why), file=sys.stderr, flush=True)
    return 0
