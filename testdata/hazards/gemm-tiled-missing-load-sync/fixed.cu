#define TILE 16
// C = A * B for n x n matrices, one 16 x 16 tile of C per CTA, K walked in shared-memory tiles.
extern "C" __global__ void matmul_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * TILE + ty, col = blockIdx.x * TILE + tx;
    float acc = 0.0f;
    for (int k0 = 0; k0 < n; k0 += TILE) {
        As[ty][tx] = A[row * n + k0 + tx]; // [A]
        Bs[ty][tx] = B[(k0 + ty) * n + col]; // [A2]
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx]; // [B]
        __syncthreads();
    }
    C[row * n + col] = acc;
}
