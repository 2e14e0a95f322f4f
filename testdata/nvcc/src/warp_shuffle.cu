// Warp shuffles: broadcast, up, down, xor, sub-warp widths, 64-bit and float payloads, partial masks.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>

// out has 10 rows of n ints each (n = total threads).
extern "C" __global__ void shfl_patterns(const int* in, int* out, int n)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[gid];
    const unsigned full = 0xffffffffu;

    out[0 * n + gid] = __shfl_sync(full, v, 3);                 // broadcast lane 3
    out[1 * n + gid] = __shfl_up_sync(full, v, 1);              // lane-1 (lane 0 keeps its own)
    out[2 * n + gid] = __shfl_down_sync(full, v, 2);            // lane+2 (top lanes keep own)
    out[3 * n + gid] = __shfl_xor_sync(full, v, 5);             // lane^5
    out[4 * n + gid] = __shfl_sync(full, v, lane + 1, 8);       // rotate inside groups of 8
    out[5 * n + gid] = __shfl_up_sync(full, v, 3, 16);          // up by 3 inside halves

    int s = v;
#pragma unroll
    for (int m = 16; m > 0; m >>= 1)
        s += __shfl_xor_sync(full, s, m);                       // butterfly: warp total in every lane
    out[6 * n + gid] = s;

    long long w = ((long long)v << 32) | (unsigned)(lane * 7);
    w = __shfl_sync(full, w, 31 - lane);                        // 64-bit payload, reversed lanes
    out[7 * n + gid] = (int)(w >> 32) ^ (int)w;

    float f = (float)v * 0.25f;
    f = __shfl_down_sync(full, f, 16);
    out[8 * n + gid] = __float_as_int(f);

    int p = -1;
    if (lane < 16) {
        p = __shfl_xor_sync(0x0000ffffu, v, 1);                 // only the lower half participates
    }
    out[9 * n + gid] = p;
}

// Double-precision warp reduction with shuffles; one result per warp.
extern "C" __global__ void shfl_reduce_f64(const double* in, double* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    double v = in[gid];
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    if ((threadIdx.x & 31) == 0)
        out[gid >> 5] = v;
}
