# black-scholes: Black-Scholes analytic engine, one kernel repeated
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/black-scholes-cuda
sources="blackScholesAnalyticEngine.cu"
args="100"   # prepare() cuts the options 10x: the CPU engine took 3.3 s
compare='exact'
filter='time|Speedup'
time_regex='Average kernel execution time on GPU: ([0-9.eE+-]+)'

# 50M options: the CPU engine alone takes 3.3 s; 5M keeps the repeated kernel the main part.
prepare() {
  sed -i 's/int numberOfSamples = 50000000;/int numberOfSamples = 5000000;/' blackScholesAnalyticEngine.cu &&
    grep -q 'numberOfSamples = 5000000;' blackScholesAnalyticEngine.cu
}
