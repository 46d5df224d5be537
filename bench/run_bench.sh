#!/usr/bin/env bash
# run_bench.sh - benchmark the examples from a bundle made by utils/build_gpu.sh.
#
#   bash run_bench.sh <bundle-dir> [outdir]
#
# For every example, REPS runs (default 5) of each variant:
#   plain            <name>_plain
#   pygraph-auto     <name>_pygraph with PYGRAPH_MODE=auto
#   pygraph-graph    <name>_pygraph with PYGRAPH_MODE=graph (graphs forced)
#   hand             <name>_hand (hand-written CUDA graph), where built
# takes the median of each variant's loop_ms, checks that every run of every
# variant printed the same checksum, prints a markdown table and appends it,
# with date, GPU, driver and the command line, to <outdir>/results.md
# (copy that back into bench/results.md in the repository).
#
# Environment: REPS (default 5), ONLY="jacobi2d tiny_chain" (subset),
# RUN_TIMEOUT (seconds per run, default 300).  bash + awk + coreutils only.
set -uo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 <bundle-dir> [outdir]" >&2
  exit 2
fi
cmdline="$0 $*"
dir=$(cd "$1" && pwd) || exit 2
bin=$dir/bin
[[ -d $bin ]] || { echo "run_bench.sh: no bin/ in $dir" >&2; exit 2; }
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "SKIP: no CUDA GPU found"
  exit 0
fi
out=${2:-$dir/bench-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
reps=${REPS:-5}
timeout_s=${RUN_TIMEOUT:-300}

lines=()
if [[ -f $dir/examples.txt ]]; then
  while IFS= read -r l; do [[ -n $l && $l != \#* ]] && lines+=("$l"); done <"$dir/examples.txt"
else
  for f in "$bin"/*_plain; do lines+=("$(basename "$f" _plain)"); done
fi

field() { awk -v k="$2:" '$1 == k { v = $2 } END { print v }' "$1" 2>/dev/null; }
median() { tr ' ' '\n' | grep -v '^$' | sort -g |
  awk '{ a[NR] = $1 } END { if (NR == 0) print "-"; else if (NR % 2) printf "%.3f", a[(NR + 1) / 2];
                            else printf "%.3f", (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a + 0 > 0 && b + 0 > 0) printf "%.2fx", a / b; else print "-" }'; }

# bench <name> <variant> <exe-suffix> <env...> -- <args...>
# sets B_MED (median ms or "-") and appends checksums to SUMS; B_FAIL=1 on error
bench() {
  local name=$1 variant=$2 suffix=$3; shift 3
  local envs=()
  while [[ $# -gt 0 && $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  local exe=$bin/${name}_$suffix ms=() r o
  B_MED=- B_FAIL=0
  [[ -x $exe ]] || return 0
  for ((r = 1; r <= reps; r++)); do
    o=$out/logs/$name.$variant.$r
    env "${envs[@]}" timeout "$timeout_s" "$exe" "$@" >"$o.out" 2>"$o.err"
    local rc=$?
    local s m
    s=$(field "$o.out" checksum)
    m=$(field "$o.out" loop_ms)
    if [[ $rc -ne 0 || -z $s || -z $m ]]; then
      echo "run_bench.sh: $name $variant run $r failed (rc=$rc), see $o.err" >&2
      B_FAIL=1
      continue
    fi
    SUMS+=("$s")
    ms+=("$m")
  done
  B_MED=$(echo "${ms[*]:-}" | median)
}

gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
driver=$(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)

status=0
table="| example | plain ms | pygraph-auto ms | speedup | pygraph-graph ms | hand ms | gap to hand | checksums |
|---|---:|---:|---:|---:|---:|---:|---|"
for l in "${lines[@]}"; do
  read -r name args <<<"$l"
  if [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]]; then continue; fi
  echo "== $name" >&2
  SUMS=()
  fail=0
  # shellcheck disable=SC2086
  bench "$name" plain plain -- $args; p=$B_MED; fail=$((fail | B_FAIL))
  # shellcheck disable=SC2086
  bench "$name" auto pygraph PYGRAPH_MODE=auto -- $args; a=$B_MED; fail=$((fail | B_FAIL))
  # shellcheck disable=SC2086
  bench "$name" graph pygraph PYGRAPH_MODE=graph -- $args; g=$B_MED; fail=$((fail | B_FAIL))
  # shellcheck disable=SC2086
  bench "$name" hand hand -- $args; h=$B_MED; fail=$((fail | B_FAIL))
  nsum=$(printf '%s\n' "${SUMS[@]:-}" | grep -v '^$' | sort -u | wc -l)
  if [[ $fail -ne 0 ]]; then agree="FAIL"; status=1
  elif [[ $nsum -eq 1 ]]; then agree="OK (${#SUMS[@]} runs)"
  else agree="MISMATCH ($nsum distinct)"; status=1; fi
  # gap to hand: how much slower pygraph-auto is than the hand-written graph
  gap=$(awk -v a="$a" -v h="$h" 'BEGIN { if (a + 0 > 0 && h + 0 > 0) printf "%+.1f%%", (a / h - 1) * 100; else print "-" }')
  table+=$'\n'"| $name | $p | $a | $(ratio "$p" "$a") | $g | $h | $gap | $agree |"
done

echo "$table"
{
  echo
  echo "## $(date -u '+%Y-%m-%d %H:%M:%S UTC') - ${gpu:-unknown GPU}, driver ${driver:-?}"
  echo
  echo "Command: \`$cmdline\` (REPS=$reps, medians of loop_ms)"
  [[ -f $dir/BUILD_INFO ]] && { echo; sed 's/^/    /' "$dir/BUILD_INFO"; }
  echo
  echo "$table"
} >>"$out/results.md"
echo "appended to $out/results.md" >&2
exit $status
