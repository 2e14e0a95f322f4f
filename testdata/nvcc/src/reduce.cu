// Block and grid reductions: shared-memory tree, warp shuffles, several element types.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>

#define BLOCK 256

// Classic shared-memory tree reduction; one partial sum per block.
extern "C" __global__ void reduce_sum_shared(const int* in, int* out, int n)
{
    __shared__ int s[BLOCK];
    int tid = threadIdx.x;
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        sum += in[i];
    s[tid] = sum;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride)
            s[tid] += s[tid + stride];
        __syncthreads();
    }
    if (tid == 0)
        out[blockIdx.x] = s[0];
}

__device__ __forceinline__ int warp_sum(int v)
{
    for (int off = 16; off > 0; off >>= 1)
        v += __shfl_down_sync(0xffffffffu, v, off);
    return v;
}

// Warp-shuffle reduction, per-warp partials in shared memory, then one global atomicAdd per block.
extern "C" __global__ void reduce_sum_warp(const int* in, int* partial, int* total, int n)
{
    __shared__ int warp_part[BLOCK / 32];
    int tid = threadIdx.x;
    int lane = tid & 31, warp = tid >> 5;
    int v = 0;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x)
        v += in[i] * ((i & 3) - 1);
    v = warp_sum(v);
    if (lane == 0)
        warp_part[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < (blockDim.x >> 5) ? warp_part[lane] : 0;
        w = warp_sum(w);
        if (lane == 0) {
            partial[blockIdx.x] = w;
            atomicAdd(total, w);
        }
    }
}

// Max and min of floats, and a double-precision sum with a fixed combination order.
extern "C" __global__ void reduce_minmax_f32_sum_f64(const float* in, float* mm, double* dsum, int n)
{
    __shared__ float smax[BLOCK];
    __shared__ float smin[BLOCK];
    __shared__ double sd[BLOCK];
    int tid = threadIdx.x;
    float mx = -3.402823466e38f, mn = 3.402823466e38f;
    double d = 0.0;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += gridDim.x * blockDim.x) {
        float x = in[i] * 2.0f - 1.0f;
        mx = fmaxf(mx, x);
        mn = fminf(mn, x);
        d += (double)x * (double)x;
    }
    smax[tid] = mx; smin[tid] = mn; sd[tid] = d;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (tid < stride) {
            smax[tid] = fmaxf(smax[tid], smax[tid + stride]);
            smin[tid] = fminf(smin[tid], smin[tid + stride]);
            sd[tid] += sd[tid + stride];
        }
        __syncthreads();
    }
    if (tid == 0) {
        mm[2 * blockIdx.x] = smax[0];
        mm[2 * blockIdx.x + 1] = smin[0];
        dsum[blockIdx.x] = sd[0];
    }
}

// Unsigned 64-bit sum with a templated helper, instantiated twice.
template <typename T>
__device__ T block_sum(T v, T* s)
{
    s[threadIdx.x] = v;
    __syncthreads();
    for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    T r = s[0];
    __syncthreads();
    return r;
}

extern "C" __global__ void reduce_sum_u64_u16(const unsigned* in, unsigned long long* out64, unsigned short* out16, int n)
{
    __shared__ unsigned long long s64[BLOCK];
    __shared__ unsigned short s16[BLOCK];
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned x = i < n ? in[i] : 0u;
    unsigned long long a = block_sum<unsigned long long>((unsigned long long)x * 0x10001ull, s64);
    unsigned short b = block_sum<unsigned short>((unsigned short)(x & 0xffff), s16);
    if (threadIdx.x == 0) {
        out64[blockIdx.x] = a;
        out16[blockIdx.x] = b;
    }
}
