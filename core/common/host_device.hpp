// Annotations for code shared by CUDA kernels and host code (CPU models, checkers, tests).
#pragma once

#if defined(__CUDACC__)
#define HS_HD __host__ __device__ __forceinline__
#define HS_HD_NOINLINE __host__ __device__
#else
#define HS_HD inline
#define HS_HD_NOINLINE inline
#endif
