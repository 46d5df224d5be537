#!/usr/bin/env bash
# ab_apps_call.sh OUT: A/B of two builds in one device call, on one card: corpus apps
# (plain/auto/graph, own time, output hash) and the examples md_step, multistream
# (loop_ms, checksum), 3 rounds alternating sides.  Expects ab-<side>.tar.xz beside it
# for each side in $SIDES (default "base new"), each holding bin/<example>_{plain,pygraph}
# (from test/gpu/build_gpu.sh) and apps.tar.xz (from bench/apps/build_apps.sh APP...).
# ROUNDS (default 3) rounds; APPS / EXAMPLES (default: every app of the bundles; md_step
# multistream) choose programs; no round starts after DEADLINE_S seconds (default 300).
set -uo pipefail
out=$1; mkdir -p $out; here=$(cd "$(dirname "$0")" && pwd)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $out/card.txt
SIDES=${SIDES:-base new}
for s in $SIDES; do mkdir -p /tmp/ab/$s && tar -xJf $here/ab-$s.tar.xz -C /tmp/ab/$s && tar -xJf /tmp/ab/$s/apps.tar.xz -C /tmp/ab/$s; done
printf 'side\tprog\tvariant\tround\ttime\tshare\n' > $out/runs.tsv
start=$SECONDS
for ((r = 1; r <= ${ROUNDS:-3}; r++)); do for s in $SIDES; do
  B=/tmp/ab/$s/apps-gpu
  while IFS=$'\t' read -r app dir args cmp filt tre; do
    [[ -n ${APPS:-} && " $APPS " != *" $app "* ]] && continue
    for v in plain auto graph; do
      bin=pygraph; [[ $v == plain ]] && bin=plain
      log=$out/$s.$app.$v.$r.log
      (cd $B/$dir && env PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 ./$bin $args < /dev/null) > $log 2>&1
      t=$(sed -E -n "s/.*$tre.*/\1/p" $log | awk '{s+=$1} END {print s}')
      sh=$(sed -n -E 's/^pygraph: total launches=.* \(([0-9.]+)%\).*/\1/p' $log | tail -1)
      cs=$(grep -v -E "^pygraph|$tre" $log | md5sum | cut -c1-8)
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $s $app $v $r "$t" "${sh:--}" "$cs" >> $out/runs.tsv
    done
  done < <(tail -n +2 $B/apps.tsv)   # apps read no stdin: /dev/null above
  for e in ${EXAMPLES:-md_step multistream}; do for v in plain auto graph; do
    bin=${e}_pygraph; [[ $v == plain ]] && bin=${e}_plain
    log=$out/$s.$e.$v.$r.log
    env PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 /tmp/ab/$s/bin/$bin > $log 2>&1
    t=$(sed -n -E 's/.*loop_ms:[ ]*([0-9.]+).*/\1/p' $log | tail -1)
    sh=$(sed -n -E 's/^pygraph: total launches=.* \(([0-9.]+)%\).*/\1/p' $log | tail -1)
    cs=$(grep -i -m1 "checksum" $log | tr -d '\t')
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $s $e $v $r "$t" "${sh:--}" "$cs" >> $out/runs.tsv
  done; done
  (( SECONDS - start > ${DEADLINE_S:-300} )) && break 2
done; done
cd $out && grep -h "^pygraph: region\|Checksum\|checksum\|PASS\|FAIL" *.log | sort | uniq -c | sort -rn | head -60 > decisions.txt
tar -cJf logs.tar.xz *.log && rm -f *.log
awk -F'\t' 'NR>1 {k=$2" "$3" "$1; v[k]=v[k]" "$5"("$6")"} END {for (k in v) print k":"v[k]}' runs.tsv | sort
echo "distinct outputs per program (must be 1):"; awk -F'\t' 'NR>1 {o[$2" "$7]=1} END {for (k in o) {split(k,a," "); n[a[1]]++}; for (p in n) print p, n[p]}' runs.tsv
