# adam: Adam optimizer step, one kernel in a repeat loop of time steps
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/adam-cuda
sources="main.cu"
args="10000 200 100"
compare='exact'
filter=''
time_regex='Average kernel execution time ([0-9.eE+-]+)'

