# adam: Adam optimizer step, one kernel in a repeat loop of time steps
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/adam-cuda
sources="main.cu"
args="10000 20 100"   # CPU reference is repeat x steps x size (200 steps: 3.8 s)
compare='exact'
filter=''
time_regex='Average kernel execution time ([0-9.eE+-]+)'

