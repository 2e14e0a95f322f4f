// Atomics on shared and global memory: int, unsigned, unsigned long long, float, double, CAS loops,
// scoped variants, cuda::atomic_ref. Every final value is independent of the order of the updates.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda/atomic>

__device__ float atomic_max_float(float* addr, float val)
{
    int* p = (int*)addr;
    int old = *p, assumed;
    do {
        assumed = old;
        if (__int_as_float(assumed) >= val) break;
        old = atomicCAS(p, assumed, __float_as_int(val));
    } while (assumed != old);
    return __int_as_float(old);
}

__device__ unsigned long long atomic_mul_u64(unsigned long long* addr, unsigned long long f)
{
    unsigned long long old = *addr, assumed;
    do {
        assumed = old;
        old = atomicCAS(addr, assumed, assumed * f);
    } while (assumed != old);
    return old;
}

// gi[8], gu[8], gull[4], gf[4], gd[2], slots[n], tickets[n + 1]; n = total threads.
extern "C" __global__ void atomics_mix(const int* in, int* gi, unsigned* gu, unsigned long long* gull,
                                       float* gf, double* gd, int* slots, int* tickets, int n)
{
    __shared__ int s_sum, s_max, s_min;
    __shared__ unsigned s_or, s_and, s_xor, s_inc;
    __shared__ float s_fsum;
    __shared__ unsigned long long s_ull;
    int tid = threadIdx.x;
    int gid = blockIdx.x * blockDim.x + tid;
    int v = in[gid] & 0x3ff;
    if (tid == 0) {
        s_sum = 0; s_max = -2147483647 - 1; s_min = 2147483647;
        s_or = 0; s_and = 0xffffffffu; s_xor = 0; s_inc = 0; s_fsum = 0.0f; s_ull = 0;
    }
    __syncthreads();

    // shared-memory atomics
    atomicAdd(&s_sum, v);
    atomicMax(&s_max, v - 300);
    atomicMin(&s_min, v - 300);
    atomicOr(&s_or, 1u << (v & 31));
    atomicAnd(&s_and, ~(1u << (gid & 31)) | (unsigned)v);
    atomicXor(&s_xor, (unsigned)v * 2654435761u);
    atomicInc(&s_inc, 9u);                                      // wraps to 0 after 9
    atomicAdd(&s_fsum, (float)(v & 63));                        // integers: exact in any order
    atomicAdd(&s_ull, (unsigned long long)v << 20);
    __syncthreads();
    if (tid == 0) {
        atomicAdd(&gi[0], s_sum);
        atomicMax(&gi[1], s_max);
        atomicMin(&gi[2], s_min);
        atomicOr(&gu[0], s_or);
        atomicAnd(&gu[1], s_and);
        atomicXor(&gu[2], s_xor);
        atomicAdd(&gu[3], s_inc);
        atomicAdd(&gf[0], s_fsum);
        atomicAdd(&gull[0], s_ull);
    }

    // global-memory atomics, return values used and unused
    atomicAdd(&gi[3], v & 15);
    atomicSub(&gi[4], v & 7);
    atomicMax(&gi[5], v * 3);
    atomicMin(&gi[6], -v);
    atomicInc(&gu[4], 100u);
    atomicDec(&gu[5], 6u);
    atomicMax(&gull[1], (unsigned long long)v * 0x100000001ull);
    atomicMin(&gull[2], 0xffffffffffull - (unsigned long long)v);
    atomic_mul_u64(&gull[3], (unsigned long long)(v | 1));
    atomicAdd(&gf[1], (float)(v % 17) * 0.5f);                  // halves: exact in any order
    atomic_max_float(&gf[2], (float)v * 0.125f);
    atomicAdd(&gd[0], (double)v * 0.25);
    atomicAdd_block(&gi[7], 1);
    atomicAdd_system(&gu[6], 2u);
    atomicCAS(&gu[7], 0u, 0x5a5a5a5au);                          // only the first succeeds, same value

    // ticket counter: the values handed out are a permutation of 0..n-1
    int t = atomicAdd(&tickets[n], 1);
    atomicAdd(&tickets[t], 1);
    atomicExch(&slots[gid], v + 1000);                           // each thread its own slot

    cuda::atomic_ref<double, cuda::thread_scope_device> dref(gd[1]);
    dref.fetch_add(1.5, cuda::std::memory_order_relaxed);
    cuda::atomic_ref<float, cuda::thread_scope_block> fref(gf[3]);
    if (tid == 0) fref.store(-1.0f, cuda::std::memory_order_release);
}

// Shared-memory histogram of bytes with a global merge.
extern "C" __global__ void atomic_histogram(const unsigned* in, unsigned* hist, int n)
{
    __shared__ unsigned bins[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) bins[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        unsigned x = in[i];
        atomicAdd(&bins[x & 0xff], 1u);
        atomicAdd(&bins[(x >> 8) & 0xff], 1u);
        atomicAdd(&bins[(x >> 16) & 0xff], 1u);
        atomicAdd(&bins[x >> 24], 1u);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x)
        if (bins[i]) atomicAdd(&hist[i], bins[i]);
}

// Half-precision atomics and release/acquire flags (compiled only).
extern "C" __global__ void atomics_half(__half2* h2, __half* h, int* flag, int* data)
{
    atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
    atomicAdd(h, __float2half(0.5f));
    cuda::atomic_ref<int, cuda::thread_scope_device> f(*flag);
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        data[0] = 42;
        f.store(1, cuda::std::memory_order_release);
    } else if (threadIdx.x == 0) {
        while (f.load(cuda::std::memory_order_acquire) == 0) { }
        data[blockIdx.x] = data[0] + (int)blockIdx.x;
    }
    int old = atomicExch(data + 100, (int)threadIdx.x);
    data[200 + threadIdx.x] = old;
}
