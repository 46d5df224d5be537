#!/usr/bin/env bash
# Run in a folder holding gpu-head.tar.gz (test/gpu/build_gpu.sh build --tar at HEAD),
# apps-head.tar.xz (bench/apps/build_apps.sh adam gelu bitonic-sort hadamard), and
# while_vs_pygraph_eb5cbba, converge_pygraph_eb5cbba (the same programs from a bundle built at eb5cbba).
# issue 17's compiled WHILE step (f719988) against eb5cbba's generic one, the WHILE examples, and
# the pending first-iteration corpus run (apps at eb5cbba: no runtime change since for them)
cd "$(dirname "$0")"; here=$(pwd); export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/h && tar -xzf gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
for r in 1 2 3; do
  for v in old new; do bin=$B/while_vs_pygraph; [[ $v == old ]] && bin=$here/while_vs_pygraph_eb5cbba
    echo "wvp $v r$r: $(PYGRAPH_MODE=graph timeout 60 $bin 16384 4000 3 2>&1 | grep -E 'us/iteration|error' | tr '\n' ' ' | cut -c1-200)"
  done
done
echo "== while_body_bench"; timeout 60 $B/while_body_bench 16384 10000 2>&1 | tail -12
echo "== converge 16384 10 4000 (loop ms, checksum)"
for r in 1 2; do
  for v in plain auto whole0 graph old_auto; do
    bin=$B/converge_pygraph; env="PYGRAPH_MODE=auto"
    case $v in plain) bin=$B/converge_plain;; whole0) env="PYGRAPH_WHOLE_LOOPS=0";; graph) env="PYGRAPH_MODE=graph";; old_auto) bin=$here/converge_pygraph_eb5cbba;; esac
    echo "converge $v r$r: $(env $env PYGRAPH_REPORT=1 timeout 60 $bin 16384 10 4000 2>&1 | grep -E 'loop_ms|checksum|choice=|error|FAIL' | sed -E 's/pygraph: //' | tr '\n' ' ' | cut -c1-330)"
  done
done
ONLY="converge counted_loop cg_solver early_exit host_flag pingpong whole_loop_forms" RUN_TIMEOUT=40 \
  bash /tmp/h/gpu/run_gpu.sh /tmp/h/gpu /tmp/suite > /tmp/suite.txt 2>&1
cp /tmp/suite.txt $OUT/suite.txt
mkdir -p /tmp/ec && tar -xJf apps-head.tar.xz -C /tmp/ec; A=/tmp/ec/apps-gpu
( ROUNDS=3 RUN_TIMEOUT=30 BUDGET_S=110 bash $A/run_apps.sh $A /tmp/apps adam gelu bitonic-sort hadamard > /tmp/apps.log 2>&1 )
cp /tmp/apps/table.txt $OUT/apps_table.txt 2>/dev/null
d=$A/adam/src/adam-cuda
for v in plain eager auto; do bin=pygraph; [[ $v == plain ]] && bin=plain
  echo "adam repeat=1 $v: $(for r in 1 2 3 4 5; do (cd $d && PYGRAPH_MODE=$v timeout 30 ./$bin 10000 20 1 2>&1 |
    sed -E -n 's/.*Average kernel execution time ([0-9.eE+-]+).*/\1/p'); done | tr '\n' ' ')"
done
echo "== suite"; grep -E "^program|x |OK|DIFF|FAIL" /tmp/suite.txt | cut -c1-170
echo "== apps"; head -8 /tmp/apps/table.txt | cut -c1-160
