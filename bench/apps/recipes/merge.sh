# merge: merge path, templated kernels over several types, repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/merge-cuda
sources="main.cu"
args="16384 30"   # 8 types x runs of host rand+sort (100000 100: ~10 s); >14336 threads
compare='exact'
filter=''
time_regex='Average kernel execution time: ([0-9.eE+-]+)'

