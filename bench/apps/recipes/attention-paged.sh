# attention-paged: vLLM paged attention kernel repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/attention-paged-cuda
sources="main.cu"
args="8 32 128 1024 1024 100"   # CPU reference scales with max_seq_len (4096: 2.0 s)
compare='exact'
filter=''
time_regex='Average execution time of the kernel: ([0-9.eE+-]+)'

