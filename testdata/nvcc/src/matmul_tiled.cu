// Tiled shared-memory matrix multiply (float and int), bounds-checked for any M, N, K.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>

#define TILE 16

// C[M x N] = A[M x K] * B[K x N], row-major. Launch with block (16, 16).
extern "C" __global__ void matmul_tiled(const float* __restrict__ A, const float* __restrict__ B,
                                        float* __restrict__ C, int M, int N, int K)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE + 1];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty;
    int col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        int ka = t * TILE + tx, kb = t * TILE + ty;
        As[ty][tx] = (row < M && ka < K) ? A[row * K + ka] : 0.0f;
        Bs[ty][tx] = (kb < K && col < N) ? B[kb * N + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    if (row < M && col < N)
        C[row * N + col] = acc;
}

// Integer version with 2x2 register blocking per thread. Launch with block (8, 8), tile 16.
extern "C" __global__ void matmul_tiled_i32_2x2(const int* A, const int* B, int* C, int M, int N, int K)
{
    __shared__ int As[TILE][TILE];
    __shared__ int Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row0 = blockIdx.y * TILE + 2 * ty;
    int col0 = blockIdx.x * TILE + 2 * tx;
    int acc[2][2] = {{0, 0}, {0, 0}};
    for (int t = 0; t < (K + TILE - 1) / TILE; ++t) {
        for (int dy = 0; dy < 2; ++dy)
            for (int dx = 0; dx < 2; ++dx) {
                int r = 2 * ty + dy, c = 2 * tx + dx;
                int ga = blockIdx.y * TILE + r, ka = t * TILE + c;
                int kb = t * TILE + r, gb = blockIdx.x * TILE + c;
                As[r][c] = (ga < M && ka < K) ? A[ga * K + ka] : 0;
                Bs[r][c] = (kb < K && gb < N) ? B[kb * N + gb] : 0;
            }
        __syncthreads();
        for (int k = 0; k < TILE; ++k) {
            int a0 = As[2 * ty][k], a1 = As[2 * ty + 1][k];
            int b0 = Bs[k][2 * tx], b1 = Bs[k][2 * tx + 1];
            acc[0][0] += a0 * b0; acc[0][1] += a0 * b1;
            acc[1][0] += a1 * b0; acc[1][1] += a1 * b1;
        }
        __syncthreads();
    }
    for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx)
            if (row0 + dy < M && col0 + dx < N)
                C[(row0 + dy) * N + col0 + dx] = acc[dy][dx];
}
