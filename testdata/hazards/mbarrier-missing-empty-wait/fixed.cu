#include <cuda/ptx>
namespace ptx = cuda::ptx;
// Warp 0 produces two rounds into one shared slot (full/empty mbarriers); warps 1..3 consume each round.
extern "C" __global__ void produce_consume(const int *in, int *out)
{
    __shared__ int slot[32];
    __shared__ alignas(8) uint64_t full, empty;
    unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    if (tid == 0) {
        ptx::mbarrier_init(&full, 32);
        ptx::mbarrier_init(&empty, 96);
    }
    __syncthreads();
    for (int round = 0; round < 2; ++round) {
        if (warp == 0) {
            while (round > 0 && !ptx::mbarrier_try_wait_parity(&empty, (round - 1) & 1)) {
            }
            slot[lane] = in[(blockIdx.x * 2 + round) * 32 + lane]; // [B]
            (void)ptx::mbarrier_arrive(&full);
        } else {
            while (!ptx::mbarrier_try_wait_parity(&full, round & 1)) { // [W]
            }
            out[(blockIdx.x * 2 + round) * 96 + tid - 32] = slot[(lane + warp) % 32]; // [A]
            (void)ptx::mbarrier_arrive(&empty);
        }
    }
}
