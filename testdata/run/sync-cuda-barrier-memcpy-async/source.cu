// cuda::barrier (block scope) + cuda::memcpy_async: four rounds, each copying 256 ints into
// shared memory with the whole block as the copying group, completion through the barrier,
// then a cross-thread read. Compiled with: nvcc -ptx -arch=sm_90 source.cu -o kernel.ptx
#include <cooperative_groups.h>
#include <cuda/barrier>

namespace cg = cooperative_groups;

extern "C" __global__ void barrier_memcpy_async(const int* in, int* out)
{
    __shared__ alignas(16) int tile[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    auto block = cg::this_thread_block();
    if (block.thread_rank() == 0) {
        init(&bar, block.size());
    }
    block.sync();
    for (int round = 0; round < 4; ++round) {
        cuda::memcpy_async(block, tile, in + 256 * round, sizeof(int) * 256, bar);
        bar.arrive_and_wait();
        for (int k = threadIdx.x; k < 256; k += blockDim.x) {
            out[256 * round + k] = tile[255 - k] * 2 + round;
        }
        bar.arrive_and_wait();  // everyone is done reading before the next copy
    }
}
