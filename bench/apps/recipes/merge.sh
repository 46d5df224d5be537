# merge: merge path, templated kernels over several types, repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/merge-cuda
sources="main.cu"
args="100000 100"
compare='exact'
filter=''
time_regex='Average kernel execution time: ([0-9.eE+-]+)'

