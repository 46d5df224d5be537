#!/usr/bin/env bash
# run_bench.sh - benchmark the examples from a bundle made by test/gpu/build_gpu.sh.
#
#   bash run_bench.sh <bundle-dir> [outdir]
#
# For every example (bundle's examples.txt, "name [args...]" per line, or
# bin/*_plain), REPS rounds (default 5); each round runs every variant once,
# in this order (interleaved, so slow drift of clocks/temperature hits all
# variants alike):
#   plain   <name>_plain
#   auto    <name>_pygraph with PYGRAPH_MODE=auto  PYGRAPH_REPORT=1
#   graph   <name>_pygraph with PYGRAPH_MODE=graph PYGRAPH_REPORT=1 (graphs forced)
#   hand    <name>_hand (hand-written CUDA graph), where built
#   b0      <name>_pygraph_b0 (the plugin's batch=0: one-iteration regions,
#           no multi-iteration graphs) with PYGRAPH_MODE=auto
#           PYGRAPH_REPORT=1, where built (test/gpu/build_gpu.sh builds it
#           for issue 16's loops and tiny_chain, jacobi2d, big_grid)
# A variant whose binary is missing shows "-".  Per example it reports:
#   plain/auto/graph/hand/b0 ms
#                              median of the variant's loop_ms lines (kernel_ms
#                              lines where the example prints them: big_grid,
#                              big_loop)
#   auto/plain                 speedup of auto over plain (plain / auto)
#   batched vs per-iter        speedup of auto (default batch=) over b0
#                              (b0 / auto): what multi-iteration graphs gain
#   auto vs best               auto against min(plain, graph), in percent:
#                              +x% = auto is x% slower than the better of the
#                              two fixed policies, -x% = faster than both
#   gap to hand                auto against hand, in percent (+x% = slower)
#   in graphs (auto)           share of launches that ran inside graphs, from
#                              the auto runs' "pygraph: total ... (P%)" stderr
#                              line (a range if the runs disagree)
#   checksums                  OK when every run of every variant printed the
#                              same checksum; otherwise MISMATCH naming the
#                              variants that differ from plain, or FAIL naming
#                              the failed runs
# The table goes to stdout and is appended, with date, GPU, driver, the
# bundle's BUILD_INFO and the exact command, to <outdir>/results.md (copy
# that into bench/results.md in the repository).  Per-run stdout/stderr are
# kept in <outdir>/logs/<name>.<variant>.<round>.{out,err}, and each pygraph
# run's JSON report (PYGRAPH_REPORT=1,json:...) in
# <outdir>/logs/<name>.<variant>.<round>.json (`pygraph-report show` reads
# it, `pygraph-report compare` tells two apart).  The table is also drawn as
# <outdir>/results.png (speed-ups over plain) by pygraph-report, copied next
# to this script by build_gpu.sh, where matplotlib is installed.  Exits 1 when any
# run failed or any checksum differs; prints "SKIP: no CUDA GPU found" and
# exits 0 without a GPU.
#
# Also per example: noise, the wider spread of auto's runs and the better
# policy's (slowest run over fastest, minus 1): a difference between the two
# smaller than that is not a measured one.  Every run's loop_ms and
# checksum also go to <outdir>/runs.tsv.
#
# Environment: REPS (default 5), ONLY="jacobi2d tiny_chain" (subset),
# RUN_TIMEOUT (seconds per run, default 300), BENCH_CPUS (a CPU list as
# taskset takes it, e.g. "0-7": every run of every variant is pinned to those
# CPUs; "gpu" means the CPUs local to the GPU, from sysfs: host-bound launch
# loops spread far less when they do not migrate between NUMA nodes); other PYGRAPH_* variables (e.g.
# PYGRAPH_WARMUP) pass through to the pygraph runs and are recorded in the
# command line.  bash + awk + coreutils only.
set -uo pipefail

usage() { echo "usage: $0 <bundle-dir> [outdir]" >&2; exit 2; }
[[ $# -ge 1 && $# -le 2 ]] || usage

# The exact command, re-runnable: the knobs that are set, then the argv.
cmdline=""
# (PYGRAPH_* settings exported by the caller reach the pygraph runs too, except
# PYGRAPH_MODE/PYGRAPH_REPORT, which each variant sets.)
for v in REPS ONLY RUN_TIMEOUT BENCH_CPUS CUDA_VISIBLE_DEVICES $(compgen -e | grep '^PYGRAPH_' | sort); do
  [[ -n ${!v+x} ]] && cmdline+="$v=$(printf '%q' "${!v}") "
done
cmdline+="bash $(printf '%q' "$0")"
for a in "$@"; do cmdline+=" $(printf '%q' "$a")"; done
cmdline="(cd $(printf '%q' "$PWD") && $cmdline)"

dir=$(cd "$1" 2>/dev/null && pwd) || { echo "run_bench.sh: no such directory: $1" >&2; exit 2; }
bin=$dir/bin
[[ -d $bin ]] || { echo "run_bench.sh: no bin/ in $dir" >&2; exit 2; }
if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "SKIP: no CUDA GPU found"
  exit 0
fi
reps=${REPS:-5}
[[ $reps =~ ^[1-9][0-9]*$ ]] || { echo "run_bench.sh: REPS must be a positive integer" >&2; exit 2; }
timeout_s=${RUN_TIMEOUT:-300}
out=${2:-$dir/bench-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out/logs" || exit 2
out=$(cd "$out" && pwd)

lines=()
if [[ -f $dir/examples.txt ]]; then
  while IFS= read -r l || [[ -n $l ]]; do
    [[ -n ${l//[[:space:]]/} && $l != \#* ]] && lines+=("$l")
  done <"$dir/examples.txt"
else
  for f in "$bin"/*_plain; do [[ -e $f ]] && lines+=("$(basename "$f" _plain)"); done
fi

# ---- helpers -----------------------------------------------------------------

# cublas_ready (cublas_path.sh, beside this script in a bundle): an example
# linking the shared cuBLAS finds libcublas.so.N (a pip wheel's too), or is
# skipped.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
for f in "$here/cublas_path.sh" "$here/../test/gpu/cublas_path.sh"; do
  # shellcheck disable=SC1090
  [[ -f $f ]] && { source "$f"; break; }
done
declare -F cublas_ready >/dev/null || cublas_ready() { return 0; }

field() { awk -v k="$2:" '$1 == k { v = $2 } END { print v }' "$1" 2>/dev/null; }
# median of the numbers on stdin (one per line), "-" when there are none
median() {
  sort -g | awk 'NF { a[++n] = $1 }
    END { if (n == 0) print "-"; else if (n % 2) printf "%.3f", a[(n + 1) / 2];
          else printf "%.3f", (a[n / 2] + a[n / 2 + 1]) / 2 }'
}
num() { [[ $1 =~ ^[0-9]*\.?[0-9]+([eE][-+]?[0-9]+)?$ ]]; }
# speedup <base> <new>: base/new as "1.23x"
speedup() { num "$1" && num "$2" && awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) { printf "%.2fx", a / b; exit 0 } exit 1 }' || echo -; }
# pct <new> <ref>: (new/ref - 1) in percent, signed
pct() { num "$1" && num "$2" && awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) { printf "%+.1f%%", (a / b - 1) * 100; exit 0 } exit 1 }' || echo -; }
# minimum of the numeric arguments ("-" ignored), "-" when none
min_of() {
  local m=- x
  for x in "$@"; do
    num "$x" || continue
    if [[ $m == - ]] || awk -v a="$x" -v b="$m" 'BEGIN { exit !(a < b) }'; then m=$x; fi
  done
  echo "$m"
}
# share <err-files...>: the percentages of their last "pygraph: total" lines
share() {
  local f p vals=()
  for f in "$@"; do
    p=$(grep -h '^pygraph: total' "$f" 2>/dev/null | tail -n1 | sed -n 's/.*(\([0-9.]*\)%).*/\1/p')
    [[ -n $p ]] && vals+=("$p")
  done
  if [[ ${#vals[@]} -eq 0 ]]; then echo -; return; fi
  printf '%s\n' "${vals[@]}" | sort -g | awk '{ a[++n] = $1 }
    END { if (a[1] == a[n]) printf "%s%%", a[1]; else printf "%s-%s%%", a[1], a[n] }'
}

# med <variant>: median loop_ms of the current example's successful runs
med() {
  # shellcheck disable=SC2086
  if [[ -n ${MS[$1]:-} ]]; then printf '%s\n' ${MS[$1]} | median; else echo -; fi
}
# noise <variants...>: the widest max/min - 1 among their runs, in percent
noise() {
  local v w=-
  for v in "$@"; do
    [[ -n ${MS[$v]:-} ]] || continue
    # shellcheck disable=SC2086
    w=$(printf '%s\n' ${MS[$v]} | awk -v w="$w" 'NR == 1 || $1 < lo { lo = $1 } NR == 1 || $1 > hi { hi = $1 }
      END { x = (lo > 0) ? (hi / lo - 1) * 100 : 0; if (w == "-" || x > w + 0) printf "%.1f", x; else print w }')
  done
  [[ $w == - ]] && echo - || echo "$w%"
}

variants=(plain auto graph hand b0)
declare -A V_EXE V_ENV
V_EXE[plain]=plain V_ENV[plain]=""
V_EXE[auto]=pygraph V_ENV[auto]="PYGRAPH_MODE=auto PYGRAPH_REPORT=1"
V_EXE[graph]=pygraph V_ENV[graph]="PYGRAPH_MODE=graph PYGRAPH_REPORT=1"
V_EXE[hand]=hand V_ENV[hand]=""
V_EXE[b0]=pygraph_b0 V_ENV[b0]="PYGRAPH_MODE=auto PYGRAPH_REPORT=1"

# ---- environment ---------------------------------------------------------------

smi_sel=()
if [[ ${CUDA_VISIBLE_DEVICES:-} =~ ^[0-9]+ ]]; then smi_sel=(-i "${BASH_REMATCH[0]}"); fi
gpu=$(nvidia-smi ${smi_sel[@]+"${smi_sel[@]}"} --query-gpu=name --format=csv,noheader 2>/dev/null | head -n1)
driver=$(nvidia-smi ${smi_sel[@]+"${smi_sel[@]}"} --query-gpu=driver_version --format=csv,noheader 2>/dev/null | head -n1)
ngpu=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU')

# CPU pinning: "gpu" -> the CPUs sysfs lists as local to the GPU's PCI device.
pin=()
cpus=${BENCH_CPUS:-}
if [[ $cpus == gpu ]]; then
  bus=$(nvidia-smi ${smi_sel[@]+"${smi_sel[@]}"} --query-gpu=pci.bus_id --format=csv,noheader 2>/dev/null | head -n1)
  bus=${bus,,}
  [[ ${#bus} -gt 12 ]] && bus=${bus: -12}   # nvidia-smi's 8-digit PCI domain -> sysfs's 4
  cpus=$(cat "/sys/bus/pci/devices/$bus/local_cpulist" 2>/dev/null)
  [[ -n $cpus ]] || { echo "run_bench.sh: BENCH_CPUS=gpu: no local_cpulist for PCI device '$bus'" >&2; exit 2; }
fi
if [[ -n $cpus ]]; then
  command -v taskset >/dev/null || { echo "run_bench.sh: BENCH_CPUS needs taskset" >&2; exit 2; }
  taskset -c "$cpus" true || { echo "run_bench.sh: cannot pin to CPUs '$cpus'" >&2; exit 2; }
  pin=(taskset -c "$cpus")
fi
echo "== GPU: ${gpu:-unknown}, driver ${driver:-?}; REPS=$reps${cpus:+; pinned to CPUs $cpus}; logs in $out/logs" >&2
printf 'example\tvariant\tround\tloop_ms\tchecksum\n' >"$out/runs.tsv"

# ---- runs ------------------------------------------------------------------------

status=0
table="| example | plain ms | auto ms | graph ms | hand ms | b0 ms | auto/plain | batched vs per-iter | auto vs best(plain,graph) | noise | gap to hand | in graphs (auto) | checksums |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"
speedups=()
nrows=0
for l in "${lines[@]}"; do
  read -r name args <<<"$l"
  if [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]]; then continue; fi
  if [[ ! -x $bin/${name}_plain ]]; then
    echo "run_bench.sh: missing $bin/${name}_plain" >&2
    table+=$'\n'"| $name | - | - | - | - | - | - | - | - | - | - | - | FAIL (no plain binary) |"
    status=1
    continue
  fi
  if ! cublas_ready "$bin/${name}_plain"; then
    table+=$'\n'"| $name | - | - | - | - | - | - | - | - | - | - | - | SKIP (no libcublas) |"
    continue
  fi
  echo "== $name${args:+ $args}" >&2
  declare -A MS=() SUMSET=() NFAIL=()
  present=()
  for v in "${variants[@]}"; do [[ -x $bin/${name}_${V_EXE[$v]} ]] && present+=("$v"); done
  for ((r = 1; r <= reps; r++)); do
    # Each round starts with a different variant, so that none always runs
    # right after another one (a host-bound run leaves the GPU clocks low).
    order=()
    for ((k = 0; k < ${#present[@]}; k++)); do
      order+=("${present[(k + r - 1) % ${#present[@]}]}")
    done
    for v in "${order[@]}"; do
      o=$out/logs/$name.$v.$r
      # shellcheck disable=SC2086  # V_ENV and args are word lists on purpose
      json=()
      [[ ${V_ENV[$v]} == *PYGRAPH_REPORT=1* ]] && json=("PYGRAPH_REPORT=1,json:$o.json")
      env ${V_ENV[$v]} ${json[@]+"${json[@]}"} ${pin[@]+"${pin[@]}"} timeout "$timeout_s" "$bin/${name}_${V_EXE[$v]}" $args >"$o.out" 2>"$o.err"
      rc=$?
      s=$(field "$o.out" checksum)
      # An example that prints kernel_ms (big_grid, big_loop: its
      # cudaEvent-timed kernel phase) is tabulated by that instead of loop_ms.
      m=$(field "$o.out" kernel_ms)
      [[ -n $m ]] || m=$(field "$o.out" loop_ms)
      printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$v" "$r" "${m:--}" "${s:--}" >>"$out/runs.tsv"
      if [[ $rc -ne 0 || ! $s =~ ^[0-9a-f]{16}$ ]] || ! num "$m"; then
        echo "run_bench.sh: $name $v round $r failed (rc=$rc${s:+, checksum $s}${m:+, loop_ms $m}), see $o.{out,err}" >&2
        NFAIL[$v]=$((${NFAIL[$v]:-0} + 1))
        continue
      fi
      MS[$v]+="$m "
      SUMSET[$v]+="$s "
    done
  done

  p=$(med plain) a=$(med auto) g=$(med graph) h=$(med hand) b0=$(med b0)

  # checksum agreement: every run of every variant against plain's first run
  ref=""
  [[ -n ${SUMSET[plain]:-} ]] && read -r ref _ <<<"${SUMSET[plain]}"
  nruns=0 bad=()
  for v in "${present[@]}"; do
    for s in ${SUMSET[$v]:-}; do
      nruns=$((nruns + 1))
      [[ -z $ref ]] && ref=$s
      if [[ $s != "$ref" && " ${bad[*]:-} " != *" $v "* ]]; then bad+=("$v"); fi
    done
  done
  fails=()
  for v in "${present[@]}"; do
    [[ -n ${NFAIL[$v]:-} ]] && fails+=("$v ${NFAIL[$v]}/$reps runs")
  done
  if [[ ${#fails[@]} -gt 0 ]]; then
    joined=$(printf '%s, ' "${fails[@]}")
    agree="FAIL (${joined%, } failed)"
    [[ ${#bad[@]} -gt 0 ]] && agree+=", MISMATCH (${bad[*]})"
    status=1
  elif [[ ${#bad[@]} -gt 0 ]]; then
    agree="MISMATCH (${bad[*]}: checksum differs from plain round 1)"
    status=1
  else
    agree="OK ($nruns runs)"
  fi

  auto_files=()
  for ((r = 1; r <= reps; r++)); do auto_files+=("$out/logs/$name.auto.$r.err"); done
  shr=-
  [[ " ${present[*]} " == *" auto "* ]] && shr=$(share "${auto_files[@]}")

  sp=$(speedup "$p" "$a")
  [[ $sp != - && $agree == OK* ]] && speedups+=("${sp%x}")   # clean rows only
  best=$(min_of "$p" "$g")
  vsbest=-
  [[ $g != - ]] && vsbest=$(pct "$a" "$best")   # only meaningful with both policies measured
  bestv=graph
  [[ $best == "$p" ]] && bestv=plain
  table+=$'\n'"| $name | $p | $a | $g | $h | $b0 | $sp | $(speedup "$b0" "$a") | $vsbest | $(noise auto $bestv) | $(pct "$a" "$h") | $shr | $agree |"
  nrows=$((nrows + 1))
  unset MS SUMSET NFAIL
done

geo=-
if [[ ${#speedups[@]} -gt 0 ]]; then
  geo=$(printf '%s\n' "${speedups[@]}" | awk '{ s += log($1); n++ } END { printf "%.2fx", exp(s / n) }')
fi

legend="b0: the pygraph build with the plugin's batch=0 (one-iteration regions), PYGRAPH_MODE=auto.  auto/plain: plain ms / auto ms.  batched vs per-iter: b0 ms / auto ms (what multi-iteration graphs gain over one-iteration regions).  auto vs best(plain,graph): auto ms against the smaller of plain ms and graph ms (+ = auto slower).  noise: the wider spread (slowest run / fastest run - 1) of auto's runs and those of the better of plain and graph.  gap to hand: auto ms against hand ms (+ = auto slower).  in graphs: share of kernel launches inside CUDA graphs in the auto runs.  Geometric-mean auto/plain over the ${#speedups[@]} example(s) with checksums OK: $geo."

echo "$table"
echo
echo "$legend"
{
  echo
  echo "## $(date -u '+%Y-%m-%d %H:%M:%S UTC') - ${gpu:-unknown GPU}, driver ${driver:-?}"
  echo
  echo "GPUs visible to nvidia-smi: ${ngpu}${CUDA_VISIBLE_DEVICES:+, CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES}; host: $(uname -n 2>/dev/null || echo ?)"
  echo
  echo "Command: \`$cmdline\`"
  echo
  echo "REPS=$reps interleaved rounds per example${cpus:+, every run pinned to CPUs $cpus}; times are medians of loop_ms in milliseconds."
  if [[ -f $dir/BUILD_INFO ]]; then echo; sed 's/^/    /' "$dir/BUILD_INFO"; fi
  echo
  echo "$table"
  echo
  echo "$legend"
} >>"$out/results.md"
echo "appended to $out/results.md" >&2
report_tool=$(dirname "${BASH_SOURCE[0]}")/pygraph-report
if [[ $nrows -gt 0 && -f $report_tool ]]; then
  if python3 "$report_tool" plot "$out/results.md" --table -1 -o "$out/results.png" >/dev/null; then
    echo "plot: $out/results.png" >&2
  else
    echo "run_bench.sh: no plot (see the message above)" >&2
  fi
fi
[[ $nrows -eq 0 ]] && { echo "run_bench.sh: no examples ran" >&2; status=1; }
[[ $status -ne 0 ]] && echo "run_bench.sh: FAILED (a run failed or checksums differ)" >&2
exit $status
