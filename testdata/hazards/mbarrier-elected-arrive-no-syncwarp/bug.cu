#include <cuda/ptx>
namespace ptx = cuda::ptx;
// Warp 0 produces 32 values into shared memory and lane 0 signals them on an mbarrier; warps 1..3 consume.
extern "C" __global__ void produce_signal(const int *in, int *out)
{
    __shared__ int slot[32];
    __shared__ alignas(8) uint64_t full;
    unsigned tid = threadIdx.x, warp = tid / 32, lane = tid % 32;
    if (tid == 0)
        ptx::mbarrier_init(&full, 1);
    __syncthreads();
    if (warp == 0) {
        slot[lane] = in[blockIdx.x * 32 + lane] * 2; // [A]
        if (lane == 0)
            (void)ptx::mbarrier_arrive(&full);
    } else {
        while (!ptx::mbarrier_try_wait_parity(&full, 0)) {
        }
        out[blockIdx.x * 96 + tid - 32] = slot[(lane + warp) % 32]; // [B]
    }
}
