#include <mma.h>
using namespace nvcuda;
// Two warps stage a 16x16 f16 tile of A and one of B in shared memory; warp 0 multiplies them.
extern "C" __global__ void wmma_tile(const half *a, const half *b, float *c)
{
    __shared__ __align__(32) half as[256];
    __shared__ __align__(32) half bs[256];
    for (int i = threadIdx.x; i < 256; i += blockDim.x) {
        as[i] = a[blockIdx.x * 256 + i]; // [A]
        bs[i] = b[blockIdx.x * 256 + i];
    }
    if (threadIdx.x < 32) {
        wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
        wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> fb;
        wmma::fragment<wmma::accumulator, 16, 16, 16, float> fc;
        wmma::fill_fragment(fc, 0.0f);
        wmma::load_matrix_sync(fa, as, 16); // [B]
        wmma::load_matrix_sync(fb, bs, 16);
        wmma::mma_sync(fc, fa, fb, fc);
        wmma::store_matrix_sync(c + blockIdx.x * 256, fc, 16, wmma::mem_row_major);
    }
}
