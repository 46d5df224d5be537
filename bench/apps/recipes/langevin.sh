# langevin: Langevin function, three kernels each in its own repeat loop
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/langevin-cuda
sources="main.cu"
args="16777216 1000"   # 3 bandwidth-bound kernels x repeat
compare='tol:1e-5'
filter=''
time_regex='Average execution time of k[0-9]: ([0-9.eE+-]+)'

