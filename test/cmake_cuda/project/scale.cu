// A device function of a static library, called from app's kernels
// (relocatable device code: linked into app's device code at its link).
__device__ unsigned scale(unsigned x) { return 3u * x + 1u; }
