// cuda::pipeline (thread scope) with 3 stages: every thread keeps two copies in flight
// (cuda::memcpy_async into the pipeline, producer_commit), waits with
// cuda::pipeline_consumer_wait_prior<2>, then the block syncs and reads across threads.
// Compiled with: nvcc -ptx -arch=sm_90 source.cu -o kernel.ptx
#include <cuda/pipeline>

constexpr int STAGES = 3;
constexpr int TILE = 128;

extern "C" __global__ void pipeline_stages(const int* in, int* out, int ntiles)
{
    __shared__ alignas(16) int buf[STAGES][TILE];
    auto pipe = cuda::make_pipeline();
    const int t = threadIdx.x;
    for (int s = 0; s < STAGES - 1; ++s) {
        pipe.producer_acquire();
        if (s < ntiles) {
            cuda::memcpy_async(&buf[s][t], &in[s * TILE + t], sizeof(int), pipe);
        }
        pipe.producer_commit();
    }
    for (int i = 0; i < ntiles; ++i) {
        const int next = i + STAGES - 1;
        pipe.producer_acquire();
        if (next < ntiles) {
            cuda::memcpy_async(&buf[next % STAGES][t], &in[next * TILE + t], sizeof(int), pipe);
        }
        pipe.producer_commit();
        cuda::pipeline_consumer_wait_prior<STAGES - 1>(pipe);
        __syncthreads();
        out[i * TILE + t] = buf[i % STAGES][(t + 5) % TILE] + 1000 * i;
        __syncthreads();
        pipe.consumer_release();
    }
}
