#!/usr/bin/env python3
"""compare_runs.py - how far auto's median is from the better fixed policy's,
and how far it would be if there were no difference at all.

    python3 bench/compare_runs.py <runs.tsv> [example ...]

runs.tsv is what run_bench.sh writes (example, variant, round, loop_ms,
checksum).  Per example: each variant's median and quartiles; "auto vs best"
as run_bench.sh's table has it (median auto / min(median plain, median graph)
- 1) with a bootstrap 90% interval; and the same statistic for three
variants drawn from one pool of all their runs, i.e. when they do not differ.
"auto vs min of two" is biased upwards by itself: with runs spread by tens of
percent (eager launch loops on the H200) a few percent above zero is what
identical programs show.  Python standard library only.
"""
import random
import statistics
import sys

VARIANTS = ("plain", "auto", "graph")
DRAWS = 4000


def auto_vs_best(runs):
    best = min(statistics.median(runs["plain"]), statistics.median(runs["graph"]))
    return statistics.median(runs["auto"]) / best - 1


def resample(rng, runs, pool=None):
    return {v: [rng.choice(pool or runs[v]) for _ in runs[v]] for v in runs}


def percentile(sorted_xs, q):
    return sorted_xs[min(len(sorted_xs) - 1, int(q * len(sorted_xs)))]


def report(name, runs):
    print(f"== {name}")
    for v in VARIANTS:
        xs = sorted(runs[v])
        print(f"  {v:5s} n={len(xs):3d}  median {statistics.median(xs):10.3f}  "
              f"quartiles {percentile(xs, 0.25):.3f}-{percentile(xs, 0.75):.3f}  "
              f"range {xs[0]:.3f}-{xs[-1]:.3f} ms")
    rng = random.Random(1)
    boot = sorted(auto_vs_best(resample(rng, runs)) for _ in range(DRAWS))
    pool = [x for v in VARIANTS for x in runs[v]]
    null = sorted(auto_vs_best(resample(rng, runs, pool)) for _ in range(DRAWS))
    print(f"  auto vs best(plain,graph) {auto_vs_best(runs) * 100:+.1f}%  "
          f"(bootstrap 90%: {percentile(boot, 0.05) * 100:+.1f}% to {percentile(boot, 0.95) * 100:+.1f}%)")
    print(f"  if the three did not differ: median {statistics.median(null) * 100:+.1f}%, "
          f"95th percentile {percentile(null, 0.95) * 100:+.1f}%")


def main(argv):
    if len(argv) < 2:
        print("usage: " + __doc__.strip().splitlines()[3].strip(), file=sys.stderr)
        return 2
    data = {}
    with open(argv[1]) as f:
        next(f, None)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 4 or cols[3] == "-":
                continue
            data.setdefault(cols[0], {}).setdefault(cols[1], []).append(float(cols[3]))
    wanted = argv[2:] or list(data)
    shown = 0
    for name in wanted:
        runs = data.get(name, {})
        if all(runs.get(v) for v in VARIANTS):
            report(name, {v: runs[v] for v in VARIANTS})
            shown += 1
        else:
            print(f"== {name}: needs runs of plain, auto and graph", file=sys.stderr)
    return 0 if shown else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
