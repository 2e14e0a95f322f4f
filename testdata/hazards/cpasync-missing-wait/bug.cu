#include <cuda_pipeline.h>
// Each thread copies one element into shared memory asynchronously; the CTA then reverses its tile.
extern "C" __global__ void reverse_async(const int *in, int *out)
{
    __shared__ int tile[128];
    unsigned tid = threadIdx.x, base = blockIdx.x * blockDim.x;
    __pipeline_memcpy_async(&tile[tid], &in[base + tid], sizeof(int)); // [A]
    __pipeline_commit();
    __syncthreads();
    out[base + tid] = tile[blockDim.x - 1 - tid]; // [B]
}
