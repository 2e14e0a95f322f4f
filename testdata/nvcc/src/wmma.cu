// Tensor-core matrix multiply through nvcuda::wmma (mma.sync), half inputs and float accumulators.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <mma.h>
using namespace nvcuda;

// C[M x N] = A[M x K] * B[K x N]; M, N, K multiples of 16; one warp per 16x16 output tile.
// A is row-major, B is column-major; inputs are given as float and converted to half in shared memory.
extern "C" __global__ void wmma_gemm_f16_f32(const float* A, const float* B, float* C, int M, int N, int K)
{
    __shared__ __align__(32) half As[16 * 16];
    __shared__ __align__(32) half Bs[16 * 16];
    int tileM = blockIdx.y, tileN = blockIdx.x;
    int lane = threadIdx.x;
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, float> c;
    wmma::fill_fragment(c, 0.0f);
    for (int k0 = 0; k0 < K; k0 += 16) {
        for (int i = lane; i < 256; i += 32) {
            int r = i / 16, q = i % 16;
            As[i] = __float2half(A[(tileM * 16 + r) * K + k0 + q]);
            Bs[i] = __float2half(B[(tileN * 16 + r) * K + k0 + q]);   // column r of the tile
        }
        __syncwarp();
        wmma::load_matrix_sync(a, As, 16);
        wmma::load_matrix_sync(b, Bs, 16);
        wmma::mma_sync(c, a, b, c);
        __syncwarp();
    }
    wmma::store_matrix_sync(C + tileM * 16 * N + tileN * 16, c, N, wmma::mem_row_major);
}

// Integer tensor-core multiply: s8 inputs, s32 accumulators (compiled only).
extern "C" __global__ void wmma_gemm_s8(const signed char* A, const signed char* B, int* C)
{
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> b;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> c;
    wmma::fill_fragment(c, 0);
    wmma::load_matrix_sync(a, A, 16);
    wmma::load_matrix_sync(b, B, 16);
    wmma::mma_sync(c, a, b, c);
    wmma::store_matrix_sync(C, c, 16, wmma::mem_row_major);
}
