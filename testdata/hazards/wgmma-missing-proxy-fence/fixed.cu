#include <cuda_fp16.h>
#include <cstdint>
// One warpgroup computes D (64x8, f32) = A (64x16, f16) x B (16x8, f16) with wgmma, after the threads copy A and B into shared memory.
__device__ uint64_t desc(const void *smem) { return (__cvta_generic_to_shared(smem) >> 4) | (uint64_t(128 >> 4) << 16) | (uint64_t(256 >> 4) << 32); }
__device__ int at(int mn, int k) { return (mn % 8) * 8 + (mn / 8) * 128 + (k / 8) * 64 + k % 8; } // no-swizzle K-major core matrices: LBO 128, SBO 256 bytes
extern "C" __global__ void wgmma_tile(const __half *a, const __half *b, float *d)
{
    __shared__ alignas(128) __half sa[64 * 16];
    __shared__ alignas(128) __half sb[8 * 16];
    unsigned tid = threadIdx.x;
    for (int i = tid; i < 64 * 16; i += 128)
        sa[at(i / 16, i % 16)] = a[i]; // [A]
    sb[at(tid / 16, tid % 16)] = b[tid];
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
    __syncthreads();
    float d0 = 0, d1 = 0, d2 = 0, d3 = 0;
    asm volatile("wgmma.fence.sync.aligned;" ::: "memory");
    asm volatile("wgmma.mma_async.sync.aligned.m64n8k16.f32.f16.f16 {%0, %1, %2, %3}, %4, %5, 0, 1, 1, 0, 0;" // [B]
                 : "+f"(d0), "+f"(d1), "+f"(d2), "+f"(d3) : "l"(desc(sa)), "l"(desc(sb)) : "memory");
    asm volatile("wgmma.commit_group.sync.aligned;" ::: "memory");
    asm volatile("wgmma.wait_group.sync.aligned 0;" ::: "memory");
    int row = (tid / 32) * 16 + (tid % 32) / 4, col = (tid % 4) * 2;
    d[row * 8 + col] = d0;
    d[row * 8 + col + 1] = d1;
    d[(row + 8) * 8 + col] = d2;
    d[(row + 8) * 8 + col + 1] = d3;
}
