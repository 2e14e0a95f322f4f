#include <cuda_pipeline.h>
#define T 128
// Each CTA sums a row of `tiles` tiles streamed through two shared-memory stages (double buffering).
extern "C" __global__ void stream_sum(const int *in, int *out, int tiles)
{
    __shared__ int stage[2][T];
    unsigned tid = threadIdx.x;
    const int *row = in + blockIdx.x * tiles * T;
    int acc = 0;
    __pipeline_memcpy_async(&stage[0][tid], &row[tid], sizeof(int)); // [A]
    __pipeline_commit();
    for (int t = 0; t < tiles; ++t) {
        if (t + 1 < tiles)
            __pipeline_memcpy_async(&stage[(t + 1) & 1][tid], &row[(t + 1) * T + tid], sizeof(int)); // [A2]
        __pipeline_commit();
        __pipeline_wait_prior(2);
        __syncthreads();
        acc += stage[t & 1][(tid + 1) % T]; // [B]
        __syncthreads();
    }
    atomicAdd(&out[blockIdx.x], acc);
}
