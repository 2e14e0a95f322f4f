#include <cuda/barrier>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// A CTA copies its tile into shared memory with cuda::memcpy_async and one cuda::barrier, then reverses it.
extern "C" __global__ void reverse_tile(const int *in, int *out)
{
    __shared__ alignas(16) int tile[128];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    cg::thread_block block = cg::this_thread_block();
    unsigned tid = block.thread_rank();
    if (tid == 0)
        init(&bar, block.size());
    block.sync();
    cuda::memcpy_async(block, tile, in + blockIdx.x * 128, cuda::aligned_size_t<16>(sizeof(tile)), bar); // [A]
    out[blockIdx.x * 128 + tid] = tile[127 - tid] * 2; // [B]
    bar.arrive_and_wait();
}
