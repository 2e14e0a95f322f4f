// Module-scope data: __constant__ and __device__ arrays with initializers, a device-global counter,
// a struct in constant memory; plus kernels using printf, assert, trap, clocks and nanosleep
// (the latter compiled only).
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cstdio>
#include <cassert>

__constant__ int coef[8] = {3, -1, 4, 1, -5, 9, 2, -6};
__constant__ float cscale = 0.75f;
struct Params {
    int offset;
    short factor;
    char tag[6];
    double bias;
};
__constant__ Params params = {100, -3, {'p', 't', 'x', 0, 1, 2}, 0.5};
__device__ int lut[16] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4};
__device__ float flut[4] = {0.5f, -1.25f, 3.0f, 1.0e-3f};
__device__ unsigned long long big = 0x0123456789abcdefull;
__device__ int counter;               // zero-initialized
__device__ int table2d[3][4] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}};

// out[i] = sum_k coef[k] * in[(i + k) % n] + popcount-by-table of in[i] low byte + params.offset
//          + params.factor * table2d[i % 3][i % 4] + tag bytes;
// fout[i] = cscale * flut[i % 4] + params.bias; tickets: counter after all increments.
extern "C" __global__ void module_globals(const int* in, int* out, float* fout, unsigned long long* misc, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int acc = 0;
#pragma unroll
    for (int k = 0; k < 8; ++k)
        acc += coef[k] * in[(i + k) % n];
    int x = in[i];
    acc += lut[x & 15] + lut[(x >> 4) & 15];
    acc += params.offset + params.factor * table2d[i % 3][i % 4];
    acc += params.tag[i % 6];
    out[i] = acc;
    fout[i] = cscale * flut[i % 4] + (float)params.bias;
    int old = atomicAdd(&counter, 1);
    if (old == n - 1) {
        misc[0] = (unsigned long long)(old + 1);
        misc[1] = big ^ (unsigned long long)n;
    }
    if (i == 0) lut[15] = 4;          // a store into a module-scope array
}

// Diagnostics: printf with several argument types, assert, trap on a bad input (compiled only).
extern "C" __global__ void debug_checks(const int* in, long long* times, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    long long t0 = clock64();
    unsigned t32 = clock();
    if (i == 0)
        printf("n=%d first=%d scale=%f big=%llx name=%s\n", n, in[0], (double)cscale, big, "ptxrun");
    assert(in[i] >= 0);
    if (in[i] == -12345)
        __trap();
    __nanosleep(100);
    unsigned long long gt;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(gt));
    times[i] = clock64() - t0 + (long long)t32 + (long long)(gt & 1);
    unsigned sm, warp;
    asm("mov.u32 %0, %%smid;" : "=r"(sm));
    asm("mov.u32 %0, %%warpid;" : "=r"(warp));
    if (sm > 10000u || warp > 10000u) printf("unexpected %u %u\n", sm, warp);
}

// Launch bounds, register limits and a by-value struct parameter (compiled only).
struct Box {
    int x0, y0, x1, y1;
    float weight;
};
extern "C" __global__ void __launch_bounds__(256, 2) bounded_kernel(Box box, int* out)
{
    int x = box.x0 + threadIdx.x, y = box.y0 + blockIdx.x;
    if (x < box.x1 && y < box.y1)
        out[y * (box.x1 - box.x0) + x] = (int)((x + y) * box.weight);
}
extern "C" __global__ void __maxnreg__(40) maxnreg_kernel(int* out)
{
    out[threadIdx.x] = threadIdx.x * 3;
}
