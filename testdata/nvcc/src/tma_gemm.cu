// Warp-specialised, multistage SGEMM in the style of CUTLASS's sm_90 TMA pipelines, without
// tensor cores (plain sm_90, so no wgmma): C = A * B for row-major f32 A (M x K), B (K x N), C (M x N).
// nvcc-targets: sm_90
//
// One CTA computes one 64 x 64 tile of C. Warp 0 is the producer: one thread issues the TMA 2D
// tile loads of A (64 x 8) and B (8 x 64) into a ring of STAGES shared-memory stages. Each stage
// has a "full" mbarrier (the producer's arrive.expect_tx with the stage's bytes; the two tile
// loads complete the transaction count) and an "empty" mbarrier (every consumer thread arrives
// when it has read the stage). Warps 1..4 are the consumers: they wait on full[stage] with
// try_wait.parity and the ring's phase bit, run a 4 x 8 register-tiled f32 FMA micro-kernel per
// thread, and release the stage. The epilogue writes the C tile to shared memory and one thread
// stores it with a TMA store through a third tensor map (bulk group, wait for the reads).
// M, N and K are kernel parameters (multiples of 64, 64 and 8), so one PTX serves every size.
#include <cuda.h>
#include <cuda/ptx>
#include <cstdint>

namespace ptx = cuda::ptx;

#define BM 64
#define BN 64
#define BK 8
#define STAGES 4
#define CONSUMERS 128            // four consumer warps
#define TM 4                     // rows of C per consumer thread
#define TN 8                     // columns of C per consumer thread

struct alignas(128) Stage {
    float a[BM][BK];             // box of tmA: 8 columns (k) x 64 rows (m)
    float b[BK][BN];             // box of tmB: 64 columns (n) x 8 rows (k)
};

extern "C" __global__ void __launch_bounds__(32 + CONSUMERS)
tma_gemm_pipeline(const __grid_constant__ CUtensorMap tmA, const __grid_constant__ CUtensorMap tmB,
                  const __grid_constant__ CUtensorMap tmC, int M, int N, int K)
{
    __shared__ Stage stages[STAGES];
    __shared__ alignas(128) float ctile[BM][BN];
    __shared__ alignas(8) uint64_t full[STAGES];
    __shared__ alignas(8) uint64_t empty[STAGES];

    const int warp = threadIdx.x / 32;
    const int m0 = blockIdx.y * BM;
    const int n0 = blockIdx.x * BN;
    const int ktiles = K / BK;
    (void)M;
    (void)N;

    if (threadIdx.x == 0) {
        for (int s = 0; s < STAGES; ++s) {
            ptx::mbarrier_init(&full[s], 1);
            ptx::mbarrier_init(&empty[s], CONSUMERS);
        }
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();

    if (warp == 0) {
        if (threadIdx.x == 0) {
            for (int kt = 0; kt < ktiles; ++kt) {
                const int s = kt % STAGES;
                // The producer starts one phase ahead: a fresh barrier counts its phase before
                // phase 0 (parity 1) as complete, so the first pass over the ring does not wait.
                const uint32_t parity = ((kt / STAGES) & 1) ^ 1;
                while (!ptx::mbarrier_try_wait_parity(&empty[s], parity)) {
                }
                (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared,
                                                     &full[s], (uint32_t)sizeof(Stage));
                const int32_t ca[2] = {kt * BK, m0};
                const int32_t cb[2] = {n0, kt * BK};
                ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &stages[s].a, &tmA, ca, &full[s]);
                ptx::cp_async_bulk_tensor(ptx::space_cluster, ptx::space_global, &stages[s].b, &tmB, cb, &full[s]);
            }
        }
        return;
    }

    const int c = threadIdx.x - 32;      // consumer index 0..127
    const int row = (c / (BN / TN)) * TM;  // 16 thread rows x 4 = 64
    const int col = (c % (BN / TN)) * TN;  // 8 thread columns x 8 = 64
    float acc[TM][TN] = {};

    for (int kt = 0; kt < ktiles; ++kt) {
        const int s = kt % STAGES;
        const uint32_t parity = (kt / STAGES) & 1;
        while (!ptx::mbarrier_try_wait_parity(&full[s], parity)) {
        }
        const Stage& st = stages[s];
#pragma unroll
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
#pragma unroll
            for (int i = 0; i < TM; ++i)
                a[i] = st.a[row + i][k];
#pragma unroll
            for (int j = 0; j < TN; ++j)
                b[j] = st.b[k][col + j];
#pragma unroll
            for (int i = 0; i < TM; ++i)
#pragma unroll
                for (int j = 0; j < TN; ++j)
                    acc[i][j] = fmaf(a[i], b[j], acc[i][j]);
        }
        (void)ptx::mbarrier_arrive(&empty[s]);
    }

#pragma unroll
    for (int i = 0; i < TM; ++i)
#pragma unroll
        for (int j = 0; j < TN; ++j)
            ctile[row + i][col + j] = acc[i][j];
    // The TMA store reads ctile through the async proxy: order the generic-proxy writes first,
    // then gather the four consumer warps (named barrier 1, the producer warp has left).
    ptx::fence_proxy_async(ptx::space_shared);
    asm volatile("bar.sync 1, %0;" ::"n"(CONSUMERS) : "memory");
    if (c == 0) {
        const int32_t cc[2] = {n0, m0};
        ptx::cp_async_bulk_tensor(ptx::space_global, ptx::space_shared, &tmC, cc, &ctile[0][0]);
        ptx::cp_async_bulk_commit_group();
        ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>{});
    }
}
