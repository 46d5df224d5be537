#!/usr/bin/env bash
# call_after_words.sh (run in a folder holding gpu-head.tar.gz, apps-head.tar.xz, wcv/): one call: the WHILE condition kernel with word accesses (old / new / inlined, profiled),
# the WHILE examples and cusparse_loop bit-identical with timings, the corpus's losers, adam's
# one-launch loop with the state arena.  Key numbers first: only the tail comes back.
cd "$(dirname "$0")"; here=$(pwd); export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/h && tar -xzf gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
for r in 1 2; do for v in old base inl old_prof prof prof_inl; do
  echo "wcv $v r$r: $(PYGRAPH_MODE=graph timeout 60 $here/wcv/while_vs_pygraph_$v 16384 4000 3 2>&1 |
    grep -E 'us/iteration|cycles a step' | sed -E 's/.*loop ([0-9.]+) us.*hand WHILE ([0-9.]+).*/loop \1 hand \2/; s/.*cycles a step: //' | sort -u | tr '\n' ' ')"
done; done
echo "== first iteration (fake backend, this CPU)"; $B/pygraph_bench_first_iteration 10
mkdir -p /tmp/ec && tar -xJf apps-head.tar.xz -C /tmp/ec; A=/tmp/ec/apps-gpu; d=$A/adam/src/adam-cuda
for v in plain eager auto; do bin=pygraph; [[ $v == plain ]] && bin=plain
  echo "adam repeat=1 $v: $(for r in 1 2 3 4 5; do (cd $d && PYGRAPH_MODE=$v timeout 30 ./$bin 10000 20 1 2>&1 |
    sed -E -n 's/.*Average kernel execution time ([0-9.eE+-]+).*/\1/p'); done | tr '\n' ' ')"
done
for alg in 1 2; do for r in 1 2; do for v in plain auto graph; do
  bin=$B/cusparse_loop_pygraph; [[ $v == plain ]] && bin=$B/cusparse_loop_plain
  echo "cusparse alg$alg $v r$r $(PYGRAPH_MODE=$v PYGRAPH_REPORT=1 timeout 30 $bin 2000 65536 $alg 2>&1 | grep -E 'loop_ms|checksum|in_graphs|error' | sed -E 's/pygraph: //; s/launches=[0-9]+ //' | tr '\n' ' ' | cut -c1-200)"
done; done; done
ONLY="converge counted_loop cg_solver cusparse_loop early_exit host_flag pingpong" RUN_TIMEOUT=30 \
  bash /tmp/h/gpu/run_gpu.sh /tmp/h/gpu $OUT/suite > $OUT/suite.txt 2>&1
ROUNDS=3 RUN_TIMEOUT=30 BUDGET_S=110 bash $A/run_apps.sh $A $OUT/apps adam gelu bitonic-sort hadamard > /dev/null 2>&1
d=$A/hadamard/src/hadamard-cuda   # the float loop's last size: why no capture there
(cd $d && PYGRAPH_DEBUG=1 timeout 30 ./pygraph 128 100 2>&1 | grep 'main.cu:279' | grep -F '<float>' |
  tail -n 14 | sed -E 's/pygraph: debug: //; s/void hadamard_transform<float>\(int, int, int\) //; s/_Z30fast_hadamard[^ ]*//' | cut -c1-140) > $OUT/hadamard_last.txt
grep -E "^program|x |OK|DIFF|FAIL" $OUT/suite.txt | cut -c1-160
head -6 $OUT/apps/table.txt | cut -c1-150; cat $OUT/hadamard_last.txt
