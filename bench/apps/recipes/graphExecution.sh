# graphExecution: builds and launches its own CUDA graph vs stream launches (program-owned graphs)
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/graphExecution-cuda
sources="main.cu"
args=""
compare='exact'
filter=''
time_regex='Execution time of using [A-Za-z]+: ([0-9.eE+-]+)'

# Sizes 512, 262144 and 134217728: the last is host init of 134M floats six times (3.9 s wall);
# stopping at 262144 leaves the graph/stream launch loops as the main part.
prepare() { sed -i 's/size <= 1<<27;/size <= 1<<18;/' main.cu && grep -q 'size <= 1<<18;' main.cu; }
