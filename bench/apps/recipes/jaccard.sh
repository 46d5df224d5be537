# jaccard: Jaccard weights, several kernels per iteration
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/jaccard-cuda
sources="main.cu"
args="1024 512 1000"   # 4 small launches an iteration (the Makefiles count)
compare='exact'
filter=''
time_regex='Average execution time of kernels: ([0-9.eE+-]+)'

