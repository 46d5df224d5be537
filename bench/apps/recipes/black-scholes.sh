# black-scholes: Black-Scholes analytic engine, one kernel repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/black-scholes-cuda
sources="blackScholesAnalyticEngine.cu"
args="100"
compare='exact'
filter='time|Speedup'
time_regex='Average kernel execution time on GPU: ([0-9.eE+-]+)'

