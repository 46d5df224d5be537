# hadamard: fast Hadamard transform, one kernel repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/hadamard-cuda
sources="main.cu"
args="32768 100"
compare='exact'
filter=''
time_regex='Average kernel execution time : ([0-9.eE+-]+)'

