# bitonic-sort: one 2^n-element kernel per stage, 253 dependent launches for n=22 (the big-grid
# case behind issue 14 parts 2 and 3: programmatic early start and auto's verdict)
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/bitonic-sort-cuda
sources="main.cu"
args="22 2"
compare='exact'
filter=''
time_regex='Total kernel execution time: ([0-9.eE+-]+)'
