# dropout: dropout, three vector widths, one kernel repeated each
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/dropout-cuda
sources="main.cu"
args="16777216 1000"
compare='exact'
filter=''
time_regex='Total kernel execution time \(VEC[0-9]\) ([0-9.eE+-]+)'

