#include <cuda/ptx>
namespace ptx = cuda::ptx;
#define N 256
// Each CTA produces `tiles` tiles of squares in one shared buffer and writes each out with a bulk store.
extern "C" __global__ void squares_bulk_store(const int *in, int *out, int tiles)
{
    __shared__ alignas(16) int buf[N];
    unsigned tid = threadIdx.x;
    for (int t = 0; t < tiles; ++t) {
        int base = (blockIdx.x * tiles + t) * N;
        for (int j = tid; j < N; j += blockDim.x)
            buf[j] = in[base + j] * in[base + j]; // [B]
        ptx::fence_proxy_async(ptx::space_shared);
        __syncthreads();
        if (tid == 0) {
            ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + base, buf, sizeof(buf)); // [A]
            ptx::cp_async_bulk_commit_group();
        }
        __syncthreads();
    }
    if (tid == 0)
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
}
