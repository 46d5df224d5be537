# graphExecution: builds and launches its own CUDA graph vs stream launches (program-owned graphs)
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/graphExecution-cuda
sources="main.cu"
args=""
compare='exact'
filter=''
time_regex='Execution time of using [A-Za-z]+: ([0-9.eE+-]+)'

