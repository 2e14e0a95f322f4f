// cuda::barrier with cuda::memcpy_async: block-wide and per-thread async copies,
// arrive_and_wait, split arrive/wait with tokens, double buffering.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHUNK 256

// Each block streams nchunks chunks of CHUNK ints through two shared buffers.
// out[blockIdx.x * CHUNK + t] = sum over chunks c of (c + 1) * chunk_c[CHUNK - 1 - t]
extern "C" __global__ void barrier_memcpy_async(const int* in, int* out, int nchunks)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) int buf[2][CHUNK];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar[2];
    if (block.thread_rank() == 0) {
        init(&bar[0], block.size());
        init(&bar[1], block.size());
    }
    block.sync();

    const int* src = in + (size_t)blockIdx.x * nchunks * CHUNK;
    cuda::memcpy_async(block, buf[0], src, cuda::aligned_size_t<16>(sizeof(int) * CHUNK), bar[0]);
    int acc = 0;
    for (int c = 0; c < nchunks; ++c) {
        int cur = c & 1;
        if (c + 1 < nchunks)
            cuda::memcpy_async(block, buf[1 - cur], src + (c + 1) * CHUNK,
                               cuda::aligned_size_t<16>(sizeof(int) * CHUNK), bar[1 - cur]);
        bar[cur].arrive_and_wait();
        acc += (c + 1) * buf[cur][CHUNK - 1 - threadIdx.x];
        block.sync();   // everyone is done reading buf[cur] before it is refilled
    }
    out[blockIdx.x * CHUNK + threadIdx.x] = acc;
}

// Per-thread async copies of single elements, then a split arrive / wait with independent work between.
// out[gid] = in[gid ^ 1] * 2 + gid
extern "C" __global__ void barrier_split_arrive(const int* in, int* out)
{
    __shared__ int s[CHUNK];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();

    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::memcpy_async(&s[threadIdx.x], &in[gid], sizeof(int), bar);
    cuda::barrier<cuda::thread_scope_block>::arrival_token token = bar.arrive();
    int local = gid;                        // independent work while the copies land
    bar.wait(std::move(token));
    out[gid] = s[threadIdx.x ^ 1] * 2 + local;
}

// A barrier used across several phases: expected count drops as threads arrive_and_drop.
// out[gid] = phase in which the thread left (threads of warp w take part in w + 1 phases)
extern "C" __global__ void barrier_drop(int* out, int* phase_sums)
{
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int sums[8];
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        for (int i = 0; i < 8; ++i) sums[i] = 0;
    }
    __syncthreads();
    int warp = threadIdx.x >> 5;
    int p = 0;
    for (; p < 8; ++p) {
        atomicAdd(&sums[p], 1);
        if (p == warp) {
            bar.arrive_and_drop();
            break;
        }
        bar.arrive_and_wait();
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = p;
    __syncthreads();
    if (threadIdx.x < 8) phase_sums[blockIdx.x * 8 + threadIdx.x] = sums[threadIdx.x];
}
