# filter: stream compaction filter, two kernels each repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/filter-cuda
sources="main.cu"
args="2097152 256 100"   # host shuffle+sort and the single-counter atomics scale with n
compare='exact'
filter=''
time_regex='Average execution time of filter \([a-z ]+\) ([0-9.eE+-]+)'

