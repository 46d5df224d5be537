# fft: 1D FFT/iFFT 512, kernels per pass
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/fft-cuda
sources="main.cu"
args="3 100"
compare='exact'
filter=''
time_regex='Average kernel execution time ([0-9.eE+-]+)'

