#!/usr/bin/env bash
# Run in a folder holding gpu-head.tar.gz (test/gpu/build_gpu.sh build --tar at HEAD).
# whole_loop_forms with drain_split (a split WHILE body: the compiled after-copy kernel) bit for bit
cd "$(dirname "$0")"; export LD_LIBRARY_PATH=/usr/local/cuda/lib64
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
mkdir -p /tmp/h && tar -xzf gpu-head.tar.gz -C /tmp/h; B=/tmp/h/gpu/bin
for v in plain auto graph whole0; do bin=$B/whole_loop_forms_pygraph; env="PYGRAPH_MODE=auto"
  case $v in plain) bin=$B/whole_loop_forms_plain;; graph) env="PYGRAPH_MODE=graph";; whole0) env="PYGRAPH_MODE=graph PYGRAPH_WHOLE_LOOPS=0";; esac
  echo "== $v"; env $env PYGRAPH_REPORT=1 timeout 90 $bin 2>&1 | grep -E 'drain_split|loop_ms|checksum|whole loop|error|FAIL' | sed -E 's/pygraph: //' | cut -c1-400
done
ONLY="whole_loop_forms converge" RUN_TIMEOUT=60 bash /tmp/h/gpu/run_gpu.sh /tmp/h/gpu /tmp/suite 2>&1 | grep -E "^program|OK|DIFF|FAIL" | cut -c1-170
