#include <mma.h>
using namespace nvcuda;
// Warp 0 multiplies two 16x16 f16 tiles with wmma and stores the f32 product in shared memory;
// then all four warps copy the product out, a row of 16 each for 16 threads.
extern "C" __global__ void wmma_out(const half *a, const half *b, float *c)
{
    __shared__ __align__(32) float cs[256];
    if (threadIdx.x < 32) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
        wmma::fill_fragment(fc, 0.0f);
        wmma::load_matrix_sync(fa, a + blockIdx.x * 256, 16);
        wmma::load_matrix_sync(fb, b + blockIdx.x * 256, 16);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(cs, fc, 16, wmma::mem_row_major); // [A]
    }
    __syncthreads();
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        c[blockIdx.x * 256 + i] = cs[i]; // [B]
    }
}
