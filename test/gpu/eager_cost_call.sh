#!/usr/bin/env bash
# eager_cost_call.sh: where do adam's and gelu's pygraph builds lose 9-10% with nothing graphed
# (issue 39)?  Beside it apps-head.tar.xz (bench/apps/build_apps.sh's bundle); $OUT from the
# device tool.  Each app plain / PYGRAPH_MODE=eager / auto with its own repeat count (100) and
# ten times it: a one-time cost shrinks tenfold in the ratio, a per-launch one does not; then
# ncu's kernel durations (plain vs eager): a slower kernel shows there.  Medians of 3 runs.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd); O=${OUT:-/tmp/out}
mkdir -p /tmp/ec && tar -xJf $here/apps-head.tar.xz -C /tmp/ec; B=/tmp/ec/apps-gpu
med() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
for app in adam gelu; do
  IFS=$'\t' read -r _ dir args _ _ tre < <(grep "^$app	" $B/apps.tsv)
  for scale in 1 10; do
    a=($args); a[-1]=$((a[-1] * scale))
    for v in plain eager auto; do
      bin=pygraph; [[ $v == plain ]] && bin=plain
      ts=$(for r in 1 2 3; do (cd $B/$dir && PYGRAPH_MODE=$v timeout 60 ./$bin "${a[@]}" 2>&1 |
        sed -E -n "s/.*$tre.*/\1/p" | awk '{s+=$1} END {print s}'); done | tr '\n' ' ')
      echo "$app repeat=${a[-1]} $v: median $(echo $ts | med) ($ts)"
    done
  done
  for v in plain eager; do
    bin=pygraph; [[ $v == plain ]] && bin=plain
    (cd $B/$dir && PYGRAPH_MODE=$v timeout 60 ncu --clock-control none --metrics gpu__time_duration.sum \
      --launch-skip 20 --launch-count 40 --csv ./$bin $args > $O/ncu_${app}_$v.csv 2>/dev/null)
    echo "$app ncu $v: kernel us median $(grep -v '^==' $O/ncu_${app}_$v.csv | awk -F'","' 'NR>1 {gsub(/"/,"",$NF); print $NF}' | tr '\n' ' ' | med) unit $(grep -v '^==' $O/ncu_${app}_$v.csv | awk -F'","' 'NR==2 {print $(NF-1)}')"
  done
done
