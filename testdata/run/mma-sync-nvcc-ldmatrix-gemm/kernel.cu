// One warp per CTA computes a 16 x 8 tile of D = A (16 x 64, row-major) * B (64 x 8, column-major)
// + C: the fragments come from shared memory through ldmatrix, and four mma.sync m16n8k16
// accumulate in f32 as FlashAttention-2 and CUTLASS sm80 kernels do.
#include <cuda_fp16.h>
#include <cstdint>

__global__ void mma_gemm_tile(const __half* A, const __half* B, const float* C, float* D) {
    __shared__ __align__(16) __half sA[16 * 64];
    __shared__ __align__(16) __half sB[8 * 64];
    const int lane = threadIdx.x;
    const int tile = blockIdx.x;
    A += tile * 16 * 64;
    B += tile * 8 * 64;
    for (int i = lane; i < 16 * 64; i += 32) sA[i] = A[i];
    for (int i = lane; i < 8 * 64; i += 32) sB[i] = B[i];
    __syncwarp();
    const int g = lane >> 2, q = lane & 3;
    float acc[4];
    for (int j = 0; j < 4; j++) acc[j] = C[tile * 128 + (g + 8 * (j / 2)) * 8 + 2 * q + (j % 2)];
    for (int k0 = 0; k0 < 64; k0 += 16) {
        uint32_t a[4], b[2];
        // x4: matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15)
        const __half* pa = &sA[((lane % 16)) * 64 + k0 + (lane / 16) * 8];
        uint32_t sa = static_cast<uint32_t>(__cvta_generic_to_shared(pa));
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0,%1,%2,%3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(sa));
        // x2: B stored column-major (n rows of 64 k): matrices (n 0-7, k 0-7), (n 0-7, k 8-15)
        const __half* pb = &sB[(lane % 8) * 64 + k0 + ((lane / 8) % 2) * 8];
        uint32_t sb = static_cast<uint32_t>(__cvta_generic_to_shared(pb));
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.shared.b16 {%0,%1}, [%2];"
                     : "=r"(b[0]), "=r"(b[1]) : "r"(sb));
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%0,%1,%2,%3};"
                     : "+f"(acc[0]), "+f"(acc[1]), "+f"(acc[2]), "+f"(acc[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]));
    }
    for (int j = 0; j < 4; j++) D[tile * 128 + (g + 8 * (j / 2)) * 8 + 2 * q + (j % 2)] = acc[j];
}
