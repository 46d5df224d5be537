#!/usr/bin/env bash
# sibling_call.sh: run in a folder holding the three bundles named below and
# library_whole_passes.sh; logs to $OUT.  (1) the pending library WHILE run and issue 17's three modes (gpu-head.tar.gz at
# af8db20); (2) issue 39's corpus A/B: apps-head.tar.xz (selection as at 4f8586f) against
# apps-new.tar.xz (af8db20: a sibling graph's clear gain), plain/auto/graph, 3 rounds alternating;
# (3) md_step and multistream plain/auto/graph; (4) hadamard auto's decisions (PYGRAPH_DEBUG); (5) the first region's making time; (6) multistream and md_step in auto.
cd "$(dirname "$0")"; here=$(pwd); out=${OUT:-/tmp/out}; mkdir -p $out
bash ./library_whole_passes.sh 2>&1 | tee $out/s1.log
for r in 1 2 3; do for env in PYGRAPH_MODE=eager "PYGRAPH_MODE=graph PYGRAPH_WHOLE_LOOPS=0" PYGRAPH_MODE=graph; do
  echo "while_vs_pygraph $env: $(env $env timeout 60 /tmp/h/gpu/bin/while_vs_pygraph 16384 4000 3 2>&1 |
    grep -E 'us/iteration|error' | tr '\n' ' ' | cut -c1-200)"
done; done | tee -a $out/s1.log
for s in base new; do mkdir -p /tmp/ab/$s; done
tar -xJf apps-head.tar.xz -C /tmp/ab/base; tar -xJf apps-new.tar.xz -C /tmp/ab/new
printf 'side\tapp\tvariant\tround\town\tshare\thash\n' > $out/corpus.tsv
for r in 1 2 3; do for s in base new; do B=/tmp/ab/$s/apps-gpu
  for app in hadamard adam gelu bitonic-sort dropout graphExecution; do
    IFS=$'\t' read -r _ dir args _ _ tre < <(grep "^$app	" $B/apps.tsv)
    for v in plain auto graph; do b=pygraph; [[ $v == plain ]] && b=plain
      log=/tmp/ab/$s.$app.$v.$r.log
      (cd $B/$dir && env PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 60 ./$b $args < /dev/null) > $log 2>&1
      t=$(sed -E -n "s/.*$tre.*/\1/p" $log | awk '{s+=$1} END {print s}')
      sh=$(sed -n -E 's/^pygraph: total launches=.* \(([0-9.]+)%\).*/\1/p' $log | tail -1)
      cs=$(grep -v -E "^pygraph|$tre" $log | md5sum | cut -c1-8)
      printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' $s $app $v $r "$t" "${sh:--}" "$cs" >> $out/corpus.tsv
    done; done; done; done
(cd /tmp/ab && tar -cJf $out/corpus_logs.tar.xz *.log)
awk -F'\t' 'NR>1 {k=$2" "$3" "$1; v[k]=v[k]" "$5"("$6")"} END {for (k in v) print k":"v[k]}' $out/corpus.tsv | sort
echo "distinct outputs per app (must be 1):"; awk -F'\t' 'NR>1 {o[$2" "$7]=1} END {for (k in o) {split(k,a," "); n[a[1]]++}; for (p in n) print p, n[p]}' $out/corpus.tsv
B=/tmp/h/gpu/bin
for r in 1 2 3; do for e in md_step multistream; do for v in plain auto graph; do bin=${e}_pygraph; [[ $v == plain ]] && bin=${e}_plain
  echo "$e $v r$r: $(env PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 60 $B/$bin 2>&1 | grep -E 'loop_ms|checksum|total launches' | tr '\n' ' ' | cut -c1-300)"
done; done; done
B=/tmp/ab/new/apps-gpu; IFS=$'\t' read -r _ dir args _ _ tre < <(grep "^hadamard	" $B/apps.tsv)
(cd $B/$dir && PYGRAPH_MODE=auto PYGRAPH_DEBUG=1 PYGRAPH_REPORT=1 timeout 60 ./pygraph $args < /dev/null) > $out/hadamard_auto_debug.log 2>&1
grep -c . $out/hadamard_auto_debug.log
# (5) adam's and gelu's one-time cost: what making the first region's state takes on this host
for app in adam gelu; do IFS=$'\t' read -r _ dir args _ _ tre < <(grep "^$app	" $B/apps.tsv)
  for v in eager auto; do for r in 1 2 3; do
    echo "$app $v r$r: $(cd $B/$dir && PYGRAPH_MODE=$v PYGRAPH_DEBUG=1 timeout 60 ./pygraph $args < /dev/null 2>&1 |
      grep -E 'first entry|Average' | sed -E 's/^pygraph: debug: //' | tr '\n' ' ' | cut -c1-400)"
  done; done; done
# (6) multistream's gap to graph mode: auto capturing before eager samples (its graph ran ~6%
# slower after 4 or more eager iterations before the capture, bench/results.md 2026-12-03);
# md_step auto's decisions
B=/tmp/h/gpu/bin
for r in 1 2 3; do for env in PYGRAPH_MODE=auto "PYGRAPH_MODE=auto PYGRAPH_EAGER_BEFORE_CAPTURE=0" PYGRAPH_MODE=graph; do
  echo "multistream $env r$r: $(env $env timeout 60 $B/multistream_pygraph 2>&1 | grep -E 'loop_ms|checksum' | tr '\n' ' ' | cut -c1-200)"
done; done
PYGRAPH_MODE=auto PYGRAPH_DEBUG=1 PYGRAPH_REPORT=1 timeout 60 $B/md_step_pygraph > $out/md_step_auto_debug.log 2>&1
grep -E "^pygraph: region|loop_ms" $out/md_step_auto_debug.log | cut -c1-400
