# particlefilter: particle filter, four kernels per frame with per-frame copies
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/particlefilter-cuda
sources="main.cu"
args="-x 128 -y 128 -z 10 -np 400000"
compare='tol:1e-4'
filter='TOOK|time'
time_regex='Average execution time of kernels: ([0-9.eE+-]+)'

