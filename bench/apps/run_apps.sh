#!/usr/bin/env bash
# run_apps.sh BUNDLE OUTDIR [app ...] - run the field corpus on the GPU machine.
#
# BUNDLE is the folder build_apps.sh or build_apps_make.sh made (apps.tsv,
# per-app binaries and data).  Every app runs as plain / PYGRAPH_MODE=auto /
# PYGRAPH_MODE=graph, and as clang where its folder has that binary (the
# Makefile-built bundle: pygraph-nvcc with PYGRAPH_PLUGIN_ARGS=disable, clang's
# build with nothing of pygraph's), ROUNDS times
# each (default 3), the variant order rotated every round, each run under a
# timeout (RUN_TIMEOUT seconds, default 30) so a hang costs one run; no app
# starts after BUDGET_S seconds (default 500), so the table is always written
# within a device call's limit (skipped apps are listed under the table).
# PYGRAPH_REPORT=1 is set for the pygraph runs (the in-graph share).
# Writes to OUTDIR: table.txt (printed last), runs.tsv (one line per run) and
# logs.tar.xz (every run's output, the pygraph reports, the plugin summaries).
# Output is compared with the plain build's first run (column match) and, for
# auto and graph, with the clang build's first run (match_clang; "-" without
# a clang build), as the recipe says:
#   exact       identical after dropping the recipe's filter lines, the time
#               lines and pygraph's own lines
#   pass:ERE    the run has a line matching ERE (the app's own PASS verdict)
#   tol:REL     same lines after filtering, numbers equal within relative REL
# The "own" time is the sum over the output's lines matching the recipe's
# time_regex (an ERE whose first group is the number).
set -uo pipefail
bundle=$(cd "$1" && pwd); outdir=$2; shift 2
only=" $* "
rounds=${ROUNDS:-3}; tmo=${RUN_TIMEOUT:-30}; budget=${BUDGET_S:-500}
mkdir -p "$outdir"; outdir=$(cd "$outdir" && pwd)
work=$(mktemp -d); logs=$work/logs; mkdir -p "$logs"
runs=$outdir/runs.tsv
printf 'app\tvariant\tround\trc\twall_s\town\tshare\tmatch\tmatch_clang\n' > "$runs"

own_time() {  # own_time FILE ERE -> sum of group 1 over matching lines, or "-"
  [[ -n $2 ]] || { echo -; return; }
  sed -E -n "s/.*$2.*/\\1/p" "$1" | awk '{s+=$1; n++} END {if (n) printf "%.6g\n", s; else print "-"}'
}
filtered() {  # filtered FILE FILTER TIMERE -> output without volatile lines
  grep -v -E "^pygraph|${2:-^\$\$never}" "$1" | { if [[ -n $3 ]]; then grep -v -E "$3"; else cat; fi; } || true
}
matches() {  # matches REF RUN COMPARE FILTER TIMERE -> yes/no
  local ref=$1 run=$2 cmp=$3
  case $cmp in
    pass:*) grep -q -E "${cmp#pass:}" "$run" && echo yes || echo no ;;
    tol:*)
           awk -v rel="${cmp#tol:}" 'NR==FNR {a[FNR]=$0; n=FNR; next}
             { m=FNR; split(a[FNR], x); if (split($0, y) != length(x)) bad=1
               for (i in y) if (x[i] != y[i]) { if (x[i]+0 == x[i] && y[i]+0 == y[i]) {
                 d = x[i]-y[i]; d = d<0?-d:d; s = x[i]<0?-x[i]:x[i]; if (d > rel*(s>1e-30?s:1e-30)) bad=1 } else bad=1 } }
             END { print (bad || m != n) ? "no" : "yes" }' <(filtered "$ref" "$4" "$5") <(filtered "$run" "$4" "$5") ;;
    *) cmp -s <(filtered "$ref" "$4" "$5") <(filtered "$run" "$4" "$5") && echo yes || echo no ;;
  esac
}

run_one() {  # run_one APP DIR ARGS VARIANT ROUND COMPARE FILTER TIMERE
  local app=$1 dir=$2 args=$3 v=$4 r=$5 log=$logs/$1.$4.$5.out bin=$4
  local -a envs=()
  [[ $v == auto || $v == graph ]] && { bin=pygraph; envs=(PYGRAPH_MODE=$v PYGRAPH_REPORT=1); }
  local t0 t1 rc
  t0=$(date +%s%N)
  # shellcheck disable=SC2086
  # stdout and stderr apart, then stderr appended: pygraph's exit report
  # (stderr) would otherwise land inside a stdout line the app had not
  # flushed yet, and the logs of identical outputs would differ.
  (cd "$bundle/$dir" && env "${envs[@]}" timeout -k 5 "$tmo" ./$bin $args) > "$log" 2> "$log.err"
  rc=$?
  t1=$(date +%s%N)
  cat "$log.err" >> "$log"; rm -f "$log.err"
  local wall own share m mc=-
  wall=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b-a)/1e9}')
  own=$(own_time "$log" "$8")
  share=$(sed -n -E 's/^pygraph: total launches=.* \(([0-9.]+)%\)/\1/p' "$log" | tail -1)
  if [[ $v == plain && $r == 0 ]]; then cp "$log" "$logs/$app.ref"; fi
  if [[ $v == clang && $r == 0 ]]; then cp "$log" "$logs/$app.clang.ref"; fi
  m=$(matches "$logs/$app.ref" "$log" "$6" "$7" "$8")
  if [[ $bin == pygraph && -f $logs/$app.clang.ref ]]; then
    mc=$(matches "$logs/$app.clang.ref" "$log" "$6" "$7" "$8")
    [[ $rc -ne 0 ]] && mc=no
  fi
  [[ $rc -ne 0 ]] && m=no
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$app" "$v" "$r" "$rc" "$wall" "$own" "${share:--}" "$m" "$mc" >> "$runs"
}

tail -n +2 "$bundle/apps.tsv" | while IFS=$'\t' read -r app dir args cmp filt tre; do
  [[ $only != "  " && $only != *" $app "* ]] && continue
  # empty fields are written as "-" (read would merge adjacent tabs)
  [[ $args == - ]] && args=""; [[ $filt == - ]] && filt=""; [[ $tre == - ]] && tre=""
  if (( SECONDS > budget )); then echo "$app" >> "$work/skipped"; continue; fi
  echo "== $app" >&2
  variants=(plain auto graph)
  [[ -x $bundle/$dir/clang ]] && variants=(plain clang auto graph)
  nv=${#variants[@]}
  for ((r = 0; r < rounds; r++)); do
    for ((k = 0; k < nv; k++)); do
      v=${variants[$(( (k + r) % nv ))]}
      # the reference runs (plain, then clang) come first
      [[ $r == 0 ]] && v=${variants[$k]}
      run_one "$app" "$dir" "$args" "$v" "$r" "$cmp" "$filt" "$tre"
    done
  done < /dev/null
done

cp "$bundle"/*.plugin.txt "$logs/" 2>/dev/null
{ awk -f "$bundle/table_apps.awk" "$runs"
  [[ -f $work/skipped ]] && echo "skipped (BUDGET_S=$budget reached): $(tr '\n' ' ' < "$work/skipped")"
  echo; echo "plugin (regions formed, launches left eager by reason):"
  for a in $(tail -n +2 "$runs" | cut -f1 | uniq); do
    printf '  %-26s %s\n' "$a" "$(cat "$bundle/$a.plugin.txt" 2>/dev/null)"
  done
} > "$outdir/table.txt"
tar -C "$work" -cJf "$outdir/logs.tar.xz" logs
rm -rf "$work"
cat "$outdir/table.txt"
