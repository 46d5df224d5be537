#!/usr/bin/env bash
# onetime_eager_cost.sh OUT [SIDE]: which one-time cost do the pygraph builds of adam and gelu pay
# in eager mode?  Plain vs PYGRAPH_MODE=eager, with PYGRAPH_NVTX=0 and with
# CUDA_MODULE_LOADING=EAGER.  Runs after test/gpu/ab_apps_call.sh unpacked /tmp/ab/SIDE.
out=$1; mkdir -p $out; B=/tmp/ab/${2:-new}/apps-gpu
printf 'app\tcfg\trep\town\n' > $out/onetime.tsv
for app in adam gelu; do
  IFS=$'\t' read -r _ dir args _ _ tre < <(grep "^$app	" $B/apps.tsv)
  for rep in 1 2 3 4 5; do
    for cfg in plain eager eager_nonvtx plain_loadeager eager_loadeager; do
      bin=pygraph; [[ $cfg == plain* ]] && bin=plain
      e=(PYGRAPH_MODE=eager); [[ $cfg == eager_nonvtx ]] && e+=(PYGRAPH_NVTX=0)
      [[ $cfg == *loadeager ]] && e+=(CUDA_MODULE_LOADING=EAGER)
      t=$(cd $B/$dir && env "${e[@]}" timeout 30 ./$bin $args 2>&1 | sed -E -n "s/.*$tre.*/\1/p" | awk '{s+=$1} END {print s}')
      printf '%s\t%s\t%s\t%s\n' $app $cfg $rep $t >> $out/onetime.tsv
    done
  done
done
awk -F'\t' 'NR>1 {k=$1" "$2; v[k]=v[k]" "$4} END {for (k in v) print k":"v[k]}' $out/onetime.tsv | sort
