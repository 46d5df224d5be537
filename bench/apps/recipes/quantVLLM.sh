# quantVLLM: vLLM int8 quantisation, four kernels each repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/quantVLLM-cuda
sources="main.cu"
args="4096 5137 100"
compare='exact'
filter=''
time_regex='Average execution time of [a-z0-9_]+ kernel: ([0-9.eE+-]+)'

