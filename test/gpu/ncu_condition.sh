#!/usr/bin/env bash
# ncu_condition.sh BIN OUTDIR: where the WHILE condition kernel's cycles go, instruction by
# instruction.  BIN is a while_vs_pygraph build (bench/while_cond_variants.sh); the kernel runs
# as a node of the loop's WHILE graph.  ncu samples the warp state of 20 of its launches (graph
# kernel nodes are profiled one by one) with the source counters, then prints the SASS lines
# holding the most stall samples and the kernel's stall reasons.  Needs ncu on the GPU machine.
set -uo pipefail
bin=$1; out=$2; mkdir -p "$out"
ncu=$(command -v ncu || echo /usr/local/cuda/bin/ncu)
PYGRAPH_MODE=graph timeout 300 "$ncu" --kernel-name pygraph_while_condition --launch-skip 200 \
  --launch-count 20 --section SourceCounters --section WarpStateStats -f -o "$out/cond" \
  "$bin" 16384 400 1 > "$out/ncu_run.txt" 2>&1
"$ncu" --import "$out/cond.ncu-rep" --page source --print-source sass --csv > "$out/sass.csv" 2>&1
"$ncu" --import "$out/cond.ncu-rep" --page details --section WarpStateStats > "$out/stalls.txt" 2>&1
python3 - "$out/sass.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1], errors="replace")))
head = next((i for i, r in enumerate(rows) if any("Source" in c for c in r)), None)
if head is None:
    print("no source page:", " | ".join(" ".join(r) for r in rows[:5])[:400]); sys.exit()
cols = rows[head]
src = next(i for i, c in enumerate(cols) if c.strip() == "Source")
samp = next((i for i, c in enumerate(cols) if "Sampling (All" in c), None)
if samp is None:
    print("columns:", cols[:20]); sys.exit()
body = [r for r in rows[head + 1:] if len(r) > max(src, samp)]
def n(x):
    try: return float(x.replace(",", ""))
    except ValueError: return 0.0
total = sum(n(r[samp]) for r in body) or 1.0
print(f"{len(body)} SASS lines, {total:.0f} stall samples; the top 25:")
for r in sorted(body, key=lambda r: -n(r[samp]))[:25]:
    print(f"{100 * n(r[samp]) / total:5.1f}%  {r[src].strip()[:110]}")
PY
grep -E "Stall|stall" "$out/stalls.txt" | head -20
