#!/usr/bin/env bash
# Run in a folder holding gpu-head.tar.gz (test/gpu/build_gpu.sh build --tar at HEAD).
# Library calls in whole loops: cufft_loop and cusparse_loop (built with whole-loops=2) in plain /
# auto / graph / per-iteration graphs, three rounds, with their whole-loop report lines.
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/h && tar -xzf gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
for r in 1 2 3; do for p in cufft_loop cusparse_loop; do
  for v in plain auto graph whole0; do bin=$B/${p}_pygraph; env="PYGRAPH_MODE=auto"
    case $v in plain) bin=$B/${p}_plain;; graph) env="PYGRAPH_MODE=graph";;
      whole0) env="PYGRAPH_MODE=graph PYGRAPH_WHOLE_LOOPS=0";; esac
    echo "$p $v r$r: $(env $env PYGRAPH_REPORT=1 timeout 60 $bin 2>&1 |
      grep -E 'loop_ms|checksum|whole loop|error|FAIL' | sed -E 's/pygraph: //' | cut -c1-420 | tr '\n' ' ')"
  done; done; done
ONLY="cufft_loop cusparse_loop" RUN_TIMEOUT=60 bash /tmp/h/gpu/run_gpu.sh /tmp/h/gpu /tmp/suite 2>&1 |
  grep -E "^program|OK|DIFF|FAIL" | cut -c1-170
