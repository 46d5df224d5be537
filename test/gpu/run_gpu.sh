#!/usr/bin/env bash
# run_gpu.sh - run the pygraph GPU suite from a bundle made by build_gpu.sh.
#
#   bash run_gpu.sh <bundle-dir> [outdir]
#
# Needs only bash, coreutils and the prebuilt binaries (no compiler); an
# example linking the shared cuBLAS also its libcublas.so.N, looked up by
# cublas_path.sh (a pip wheel's too) and skipped, said on stderr and in the
# table, when it is nowhere.  For
# every example: runs <name>_plain, <name>_pygraph (PYGRAPH_REPORT=1, stderr
# kept in the log), and <name>_pygraph_b0 (built with the plugin's batch=0:
# one-iteration regions; same environment as pygraph) and <name>_hand when
# present; compares their checksum lines bit for bit against plain; prints
# one table (b0 ms: "-" where there is no b0 binary).  Exits non-zero when
# any checksum differs or any program fails.  Without a CUDA GPU it prints
# "SKIP: no CUDA GPU found" and exits 0.  An example whose plain build
# prints "skip: <why>" and exits 0 (multi_gpu_loop and nccl_step on fewer
# than 2 GPUs), or cannot start without libnccl.so.2, is a SKIP row.
#
# Environment: RUN_TIMEOUT (seconds per program run, default 300),
# ONLY="jacobi2d tiny_chain" (subset), EXTRA_ENV="PYGRAPH_MODE=graph" (added to
# the pygraph and pygraph_b0 runs).  With EXTRA_ENV="PYGRAPH_VERIFY=1" a run
# whose stderr has a verify-mode difference ("pygraph: verify: ... differs
# from eager") fails as VERIFY(<variant>), and the report column adds the
# segments' verify= results (ok: graph runs found equal, off: segments not
# verified, each with its reason in the .err log).
set -uo pipefail

if [[ $# -lt 1 ]]; then
  echo "usage: $0 <bundle-dir> [outdir]" >&2
  exit 2
fi
dir=$(cd "$1" && pwd) || exit 2
bin=$dir/bin
[[ -d $bin ]] || { echo "run_gpu.sh: no bin/ in $dir" >&2; exit 2; }

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
  echo "SKIP: no CUDA GPU found"
  exit 0
fi

out=${2:-$dir/logs-$(date +%Y%m%d-%H%M%S)}
mkdir -p "$out"
out=$(cd "$out" && pwd)
timeout_s=${RUN_TIMEOUT:-300}

# Example list: examples.txt (one "name [args...]" per line) or bin/*_plain.
lines=()
if [[ -f $dir/examples.txt ]]; then
  while IFS= read -r l; do [[ -n $l && $l != \#* ]] && lines+=("$l"); done <"$dir/examples.txt"
else
  for f in "$bin"/*_plain; do lines+=("$(basename "$f" _plain)"); done
fi

# cublas_ready: an example that links the shared cuBLAS (cublas_loop) finds
# libcublas.so.N, in a pip wheel (nvidia-cublas) too; else it is skipped.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=cublas_path.sh
source "$here/cublas_path.sh"
# Examples that link the toolkit's other shared libraries (cufft_loop's
# libcufft, cusparse_loop's libcusparse): the toolkit's own folder, where
# the machine has one.
for d in /usr/local/cuda/lib64; do
  [[ -d $d ]] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$d"
done

field() {  # field <file> <key>: value of the last "key: value" line
  awk -v k="$2:" '$1 == k { v = $2 } END { print v }' "$1" 2>/dev/null
}

# run_one <name> <variant> <args...>: sets R_RC R_SUM R_MS
run_one() {
  local name=$1 variant=$2; shift 2
  local exe=$bin/${name}_$variant
  local o=$out/$name.$variant.out e=$out/$name.$variant.err
  local envs=()
  if [[ $variant == pygraph* ]]; then
    envs=(PYGRAPH_REPORT=1)
    for x in ${EXTRA_ENV:-}; do envs+=("$x"); done
  fi
  env "${envs[@]}" timeout "$timeout_s" "$exe" "$@" >"$o" 2>"$e"
  R_RC=$?
  R_SUM=$(field "$o" checksum)
  R_MS=$(field "$o" loop_ms)
  # An example that cannot run here (multi_gpu_loop, nccl_step on fewer
  # than 2 GPUs) prints "skip: <why>" and exits 0; one whose shared library
  # is missing (libnccl.so.2) cannot start.
  if [[ $R_RC -eq 0 ]] && grep -q '^skip: ' "$o"; then R_SUM=skip R_MS=-; fi
  if [[ $R_RC -eq 127 ]] && grep -q 'libnccl' "$e"; then R_RC=0 R_SUM=skip R_MS=-; fi
  [[ $R_SUM == skip ]] && { echo "$name.$variant: skipped" >>"$out/runs.txt"; return; }
  if [[ $R_RC -eq 0 && ! $R_SUM =~ ^[0-9a-f]{16}$ ]]; then R_RC=998; fi
  if [[ $R_RC -eq 0 && -z $R_MS ]]; then R_RC=999; fi
  echo "$name.$variant: rc=$R_RC checksum=${R_SUM:--} loop_ms=${R_MS:--}" >>"$out/runs.txt"
}

# verify_note <err file>: " verify ok=<graph runs equal> off=<segments>" from
# the report lines' verify="..." fields; empty when verify mode was off.
verify_note() {
  grep -ho 'verify="[^"]*"' "$1" 2>/dev/null |
    awk '/verify="ok /{ sub(/verify="ok /, ""); ok += $0 + 0; n++ }
         /verify="off/{ off++; n++ } /verify="mismatch/{ bad++; n++ }
         END { if (n) printf " verify ok=%d off=%d%s", ok, off, bad ? " mismatch=" bad : "" }'
}

# verify_differs <err file>: did verify mode see a graph differ from eager?
verify_differs() { grep -q '^pygraph: verify: .* differs from eager' "$1" 2>/dev/null; }

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a > 0 && b > 0) printf "%.2fx", a / b; else print "-" }'; }

{
  echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -n1)"
  [[ -f $dir/BUILD_INFO ]] && cat "$dir/BUILD_INFO"
} >"$out/env.txt"
: >"$out/runs.txt"

status=0
rows=()
for l in "${lines[@]}"; do
  read -r name args <<<"$l"
  if [[ -n ${ONLY:-} && " $ONLY " != *" $name "* ]]; then continue; fi
  [[ -x $bin/${name}_plain ]] || { echo "run_gpu.sh: missing $bin/${name}_plain" >&2; status=1; continue; }
  if ! cublas_ready "$bin/${name}_plain"; then
    rows+=("$name|-|-|-|-|-|SKIP(no libcublas)|(not run: see stderr)")
    continue
  fi
  echo "== $name" >&2
  # shellcheck disable=SC2086
  run_one "$name" plain $args
  p_rc=$R_RC p_sum=$R_SUM p_ms=$R_MS
  if [[ $p_sum == skip ]]; then
    why=$(sed -n 's/^skip: //p' "$out/$name.plain.out" | head -n1)
    rows+=("$name|-|-|-|-|-|SKIP|${why:-no libnccl}")
    echo "run_gpu.sh: $name skipped: ${why:-libnccl.so.2 not found}" >&2
    continue
  fi
  verdict=OK
  [[ $p_rc -ne 0 ]] && verdict="FAIL(plain rc=$p_rc)"

  g_ms=- report=-
  if [[ -x $bin/${name}_pygraph ]]; then
    # shellcheck disable=SC2086
    run_one "$name" pygraph $args
    g_ms=${R_MS:--}
    report=$(grep -h '^pygraph: total' "$out/$name.pygraph.err" | tail -n1)
    [[ -z $report ]] && report="(no report line)"
    report+=$(verify_note "$out/$name.pygraph.err")
    if [[ $R_RC -ne 0 ]]; then verdict="FAIL(pygraph rc=$R_RC)"
    elif [[ $verdict == OK && $R_SUM != "$p_sum" ]]; then verdict="MISMATCH(pygraph)"
    elif [[ $verdict == OK ]] && verify_differs "$out/$name.pygraph.err"; then
      verdict="VERIFY(pygraph)"; fi
  else
    report="(no pygraph binary)"
  fi

  b0_ms=-
  if [[ -x $bin/${name}_pygraph_b0 ]]; then
    # shellcheck disable=SC2086
    run_one "$name" pygraph_b0 $args
    b0_ms=${R_MS:--}
    if [[ $R_RC -ne 0 ]]; then [[ $verdict == OK ]] && verdict="FAIL(pygraph_b0 rc=$R_RC)"
    elif [[ $verdict == OK && $R_SUM != "$p_sum" ]]; then verdict="MISMATCH(pygraph_b0)"
    elif [[ $verdict == OK ]] && verify_differs "$out/$name.pygraph_b0.err"; then
      verdict="VERIFY(pygraph_b0)"; fi
  fi

  h_ms=-
  if [[ -x $bin/${name}_hand ]]; then
    # shellcheck disable=SC2086
    run_one "$name" hand $args
    h_ms=${R_MS:--}
    if [[ $R_RC -ne 0 ]]; then [[ $verdict == OK ]] && verdict="FAIL(hand rc=$R_RC)"
    elif [[ $verdict == OK && $R_SUM != "$p_sum" ]]; then verdict="MISMATCH(hand)"; fi
  fi
  [[ $verdict != OK ]] && status=1
  rows+=("$name|${p_ms:--}|$g_ms|$(ratio "${p_ms:-0}" "${g_ms/-/0}")|$h_ms|$b0_ms|$verdict|$report")
done

{
  # b0 ms: the batch=0 build (per-iteration regions), "-" where not built.
  printf '%-16s %10s %10s %8s %10s %10s %-24s %s\n' program "plain ms" "pygraph ms" speedup "hand ms" \
    "b0 ms" checksum report
  for r in "${rows[@]}"; do
    IFS='|' read -r a b c d e f2 f g <<<"$r"
    printf '%-16s %10s %10s %8s %10s %10s %-24s %s\n' "$a" "$b" "$c" "$d" "$e" "$f2" "$f" "$g"
  done
} | tee "$out/summary.txt"

echo "logs: $out"
if [[ $status -ne 0 ]]; then
  echo "run_gpu.sh: FAILED (checksum mismatch, verify-mode difference or program failure)" >&2
fi
exit $status
