#include <cuda/ptx>
namespace ptx = cuda::ptx;
#define N 256
// The bulk-copy example of the CUDA Programming Guide: load a tile, add one in shared memory, store it back.
extern "C" __global__ void add_one(int *data)
{
    __shared__ alignas(16) int buf[N];
    __shared__ alignas(8) uint64_t full;
    unsigned tid = threadIdx.x;
    int *tile = data + blockIdx.x * N;
    if (tid == 0) {
        ptx::mbarrier_init(&full, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    if (tid == 0) {
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full, sizeof(buf));
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, buf, tile, sizeof(buf), &full);
    }
    while (!ptx::mbarrier_try_wait_parity(&full, 0)) {
    }
    for (int j = tid; j < N; j += blockDim.x)
        buf[j] += 1; // [A]
    __syncthreads();
    if (tid == 0) {
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, tile, buf, sizeof(buf)); // [B]
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
    }
}
