# attention: attention, naive multi-kernel implementation repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/attention-cuda
sources="main.cu"
args="8192 1024 0 100"   # host init + reference scale with rows x columns (65536 2048: 7.3 s)
compare='exact'
filter=''
time_regex='Average execution time of kernels ([0-9.eE+-]+)'

