#!/usr/bin/env bash
# Run in the folder of test/gpu/clauses_call.sh (the same bundle and eb5cbba binaries).
# issue 17 at 189ea9b: while_vs_pygraph as plain-equivalent (eager), per-iteration graphs, whole loop; converge x3
cd "$(dirname "$0")"; here=$(pwd); export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/h && tar -xzf gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
for r in 1 2 3; do
  for v in eager periter whole old; do bin=$B/while_vs_pygraph; env="PYGRAPH_MODE=graph"
    case $v in eager) env="PYGRAPH_MODE=eager";; periter) env="PYGRAPH_MODE=graph PYGRAPH_WHOLE_LOOPS=0";; old) bin=$here/while_vs_pygraph_eb5cbba;; esac
    echo "wvp $v r$r: $(env $env timeout 60 $bin 16384 4000 3 2>&1 | grep -E 'us/iteration|error' | tr '\n' ' ' | cut -c1-200)"
  done
done
for r in 1 2 3; do
  for v in plain auto whole0 graph; do
    bin=$B/converge_pygraph; env="PYGRAPH_MODE=auto"
    case $v in plain) bin=$B/converge_plain;; whole0) env="PYGRAPH_MODE=graph PYGRAPH_WHOLE_LOOPS=0";; graph) env="PYGRAPH_MODE=graph";; esac
    echo "converge $v r$r: $(env $env PYGRAPH_REPORT=1 timeout 60 $bin 16384 10 4000 2>&1 | grep -E 'loop_ms|checksum|error|FAIL' | sed -E 's/pygraph: //' | tr '\n' ' ' | cut -c1-200)"
  done
done
for r in 1 2; do for v in plain auto; do bin=$B/cg_solver_pygraph; [[ $v == plain ]] && bin=$B/cg_solver_plain
  echo "cg_solver $v r$r: $(PYGRAPH_REPORT=1 timeout 60 $bin 2>&1 | grep -E 'loop_ms|checksum|whole loop' | sed -E 's/pygraph: //' | cut -c1-330 | tr '\n' ' ')"
done; done
echo "cg hand: $(timeout 60 $B/cg_solver_hand 2>&1 | grep -E 'loop_ms|checksum' | tr '\n' ' ')"
