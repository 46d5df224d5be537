# mixbench: mixbench compute/memory mix, one kernel repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/mixbench-cuda
sources="main.cu"
args="1024 1000"   # 8192 (the Makefile's) is ~2 ms a launch: 5 s
compare='exact'
filter=''
time_regex='Total kernel execution time: ([0-9.eE+-]+)'

