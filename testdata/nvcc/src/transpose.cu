// Memory-access patterns: padded shared-memory transpose on a 2D grid, vectorized float4 loads with
// __ldg, dynamic shared memory, grid-stride loops, 3D indexing.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>

#define TDIM 32
#define ROWS 8

// out = transpose(in); in is height x width row-major. Launch block (32, 8), grid (ceil(w/32), ceil(h/32)).
extern "C" __global__ void transpose_padded(const float* __restrict__ in, float* __restrict__ out,
                                            int width, int height)
{
    __shared__ float tile[TDIM][TDIM + 1];
    int x = blockIdx.x * TDIM + threadIdx.x;
    int y = blockIdx.y * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += ROWS)
        if (x < width && y + j < height)
            tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * width + x];
    __syncthreads();
    x = blockIdx.y * TDIM + threadIdx.x;
    y = blockIdx.x * TDIM + threadIdx.y;
    for (int j = 0; j < TDIM; j += ROWS)
        if (x < height && y + j < width)
            out[(y + j) * height + x] = tile[threadIdx.x][threadIdx.y + j];
}

// y = a * x + y on float4 vectors, read-only loads through __ldg, grid-stride loop; n4 = n / 4.
extern "C" __global__ void saxpy_vec4(const float4* __restrict__ x, float4* y, float a, int n4)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += gridDim.x * blockDim.x) {
        float4 xv = __ldg(&x[i]);
        float4 yv = y[i];
        yv.x = fmaf(a, xv.x, yv.x);
        yv.y = fmaf(a, xv.y, yv.y);
        yv.z = fmaf(a, xv.z, yv.z);
        yv.w = fmaf(a, xv.w, yv.w);
        y[i] = yv;
    }
}

// Dynamic shared memory (extern __shared__) used as a per-block staging area for a reversal,
// with a 3D block: out[block slice] = reversed in[block slice] + (tz << 16 | ty << 8 | tx).
extern "C" __global__ void dyn_shared_reverse_3d(const int* in, int* out)
{
    extern __shared__ int dyn[];
    int nthreads = blockDim.x * blockDim.y * blockDim.z;
    int t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    int b = (blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    dyn[t] = in[b * nthreads + t];
    __syncthreads();
    out[b * nthreads + t] = dyn[nthreads - 1 - t] + (int)(threadIdx.z << 16 | threadIdx.y << 8 | threadIdx.x);
}

// Byte, short and 64-bit element kernels: widening, packing and vector types (char4, short2, double2).
extern "C" __global__ void mixed_widths(const unsigned char* b, const short* s, const double2* d,
                                        unsigned* out32, long long* out64, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    uchar4 q = reinterpret_cast<const uchar4*>(b)[i];
    short2 h = reinterpret_cast<const short2*>(s)[i];
    double2 dv = d[i];
    out32[i] = (unsigned)q.x | (unsigned)q.y << 8 | (unsigned)(q.z ^ q.w) << 16;
    out32[n + i] = (unsigned)(h.x * h.y);
    out64[i] = (long long)h.x * 100000ll + (long long)(dv.x * 1000.0) - (long long)(dv.y * 10.0);
}
