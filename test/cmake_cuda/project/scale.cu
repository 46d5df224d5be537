// A device function of a static library, called from app's kernels
// (relocatable device code: linked into app's device code at its link).
__device__ float scale(float x) { return 0.5f * x; }
