# hadamard: fast Hadamard transform, one kernel repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/hadamard-cuda
sources="main.cu"
args="128 100"   # batch x 37448 elements x 3 types of host rand+reference (32768 timed out)
compare='exact'
filter=''
time_regex='Average kernel execution time : ([0-9.eE+-]+)'

