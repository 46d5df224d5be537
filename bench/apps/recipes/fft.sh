# fft: 1D FFT/iFFT 512, kernels per pass
repo=zjin-lcf/HeCBench
commit=f27000a5188f8ac79bd43fc95a1b3f890c18823d
path=src/fft-cuda
sources="main.cu"
args="1 2000"   # 8 MB: host init/reference of 256 MB took 1.8 s
compare='exact'
filter=''
time_regex='Average kernel execution time ([0-9.eE+-]+)'

