# bscan: block scan, one kernel repeated over several block sizes
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/bscan-cuda
sources="main.cu"
args="1000"
compare='exact'
filter='Billion elements'
time_regex='Average execution time: ([0-9.eE+-]+)'

