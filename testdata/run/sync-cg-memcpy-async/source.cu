// cooperative_groups::memcpy_async + cooperative_groups::wait / wait_prior: two tiles copied
// by the whole block in separate batches; wait_prior<1> waits for the first only, wait for
// both. Compiled with: nvcc -ptx -arch=sm_90 source.cu -o kernel.ptx
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>

namespace cg = cooperative_groups;

extern "C" __global__ void cg_memcpy_async(const float* in, float* out)
{
    __shared__ alignas(16) float a[256];
    __shared__ alignas(16) float b[256];
    auto block = cg::this_thread_block();
    cg::memcpy_async(block, a, in, sizeof(float) * 256);
    cg::memcpy_async(block, b, in + 256, sizeof(float) * 256);
    cg::wait_prior<1>(block);
    for (int k = block.thread_rank(); k < 256; k += block.size()) {
        out[k] = a[255 - k] * 0.5f;
    }
    cg::wait(block);
    for (int k = block.thread_rank(); k < 256; k += block.size()) {
        out[256 + k] = b[(k + 17) % 256] + a[k];
    }
}
