// cuda::pipeline: multi-stage block-scoped pipeline, producer/consumer role split,
// and the primitive __pipeline_* interface.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cuda/pipeline>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define STAGES 3
#define CHUNK 128

// All threads produce and consume. out[blockIdx.x * CHUNK + t] = sum_c (c + 1) * chunk_c[t]
extern "C" __global__ void pipeline_stages(const int* in, int* out, int nchunks)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) int smem[STAGES][CHUNK];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, STAGES> state;
    auto pipe = cuda::make_pipeline(block, &state);
    const int* src = in + (size_t)blockIdx.x * nchunks * CHUNK;
    int acc = 0;
    for (int compute = 0, fetch = 0; compute < nchunks; ++compute) {
        for (; fetch < nchunks && fetch < compute + STAGES; ++fetch) {
            pipe.producer_acquire();
            cuda::memcpy_async(block, smem[fetch % STAGES], src + fetch * CHUNK,
                               cuda::aligned_size_t<16>(sizeof(int) * CHUNK), pipe);
            pipe.producer_commit();
        }
        pipe.consumer_wait();
        acc += (compute + 1) * smem[compute % STAGES][threadIdx.x];
        pipe.consumer_release();
    }
    out[blockIdx.x * CHUNK + threadIdx.x] = acc;
}

// Warp 0 produces, the other warps consume. Block = 32 + CHUNK threads.
// out[blockIdx.x * CHUNK + t] = max over chunks c of chunk_c[t] * (c % 3 + 1) - c
extern "C" __global__ void pipeline_roles(const int* in, int* out, int nchunks)
{
    auto block = cg::this_thread_block();
    __shared__ alignas(16) int smem[2][CHUNK];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 2> state;
    const bool producer = threadIdx.x < 32;
    const auto role = producer ? cuda::pipeline_role::producer : cuda::pipeline_role::consumer;
    auto pipe = cuda::make_pipeline(block, &state, role);
    const int* src = in + (size_t)blockIdx.x * nchunks * CHUNK;
    if (producer) {
        for (int c = 0; c < nchunks; ++c) {
            pipe.producer_acquire();
            for (int i = threadIdx.x; i < CHUNK; i += 32)
                cuda::memcpy_async(&smem[c & 1][i], &src[c * CHUNK + i], sizeof(int), pipe);
            pipe.producer_commit();
        }
    } else {
        int t = threadIdx.x - 32;
        int best = -2147483647 - 1;
        for (int c = 0; c < nchunks; ++c) {
            pipe.consumer_wait();
            int x = smem[c & 1][t] * (c % 3 + 1) - c;
            best = x > best ? x : best;
            pipe.consumer_release();
        }
        out[blockIdx.x * CHUNK + t] = best;
    }
}

// Thread-scoped pipeline through the primitive interface: each thread double-buffers its own elements.
// out[gid] = sum over k < nper of in[k * total + gid] * (k + 1), total = gridDim.x * blockDim.x
extern "C" __global__ void pipeline_primitives(const int* in, int* out, int nper)
{
    __shared__ int s[2][CHUNK];
    int total = gridDim.x * blockDim.x;
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    __pipeline_memcpy_async(&s[0][threadIdx.x], &in[gid], sizeof(int));
    __pipeline_commit();
    int acc = 0;
    for (int k = 0; k < nper; ++k) {
        if (k + 1 < nper)
            __pipeline_memcpy_async(&s[(k + 1) & 1][threadIdx.x], &in[(k + 1) * total + gid], sizeof(int));
        __pipeline_commit();
        __pipeline_wait_prior(1);
        acc += s[k & 1][threadIdx.x] * (k + 1);
    }
    out[gid] = acc;
}
