#include <cuda/ptx>
namespace ptx = cuda::ptx;
#define N 256
// Each CTA streams `tiles` 1 KiB tiles of its row through one shared buffer with bulk copies and sums them.
extern "C" __global__ void bulk_stream_sum(const int *in, int *out, int tiles)
{
    __shared__ alignas(16) int buf[N];
    __shared__ alignas(8) uint64_t full;
    unsigned tid = threadIdx.x;
    if (tid == 0) {
        ptx::mbarrier_init(&full, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    int acc = 0;
    for (int t = 0; t < tiles; ++t) {
        if (tid == 0) {
            ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof(buf));
            ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, buf, in + (blockIdx.x * tiles + t) * N, sizeof(buf), &full); // [A]
        }
        while (!ptx::mbarrier_try_wait_parity(&full, t & 1)) {
        }
        for (int j = tid; j < N; j += blockDim.x)
            acc += buf[j]; // [B]
        __syncthreads();
    }
    atomicAdd(&out[blockIdx.x], acc);
}
