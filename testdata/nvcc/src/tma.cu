// Hopper bulk copies: cuda::device::experimental TMA helpers (cp.async.bulk, cp.async.bulk.tensor),
// cuda::device::barrier_arrive_tx (mbarrier expect_tx), fence.proxy.async, and the same through
// the raw cuda::ptx wrappers on a plain 64-bit mbarrier.
// nvcc-targets: sm_90
#include <cuda_runtime.h>
#include <cuda.h>
#include <cuda/barrier>
#include <cuda/ptx>
#include <utility>

namespace cde = cuda::device::experimental;
namespace ptx = cuda::ptx;
using block_barrier = cuda::barrier<cuda::thread_scope_block>;

#define ELEMS 1024

// Bulk copy global -> shared with a transaction-count barrier, transform, bulk copy shared -> global.
// out[b * ELEMS + i] = in[b * ELEMS + (i ^ 1)] * 3 + 1
extern "C" __global__ void bulk_copy_roundtrip(const int* in, int* out)
{
    __shared__ alignas(128) int buf[ELEMS];
    __shared__ alignas(128) int res[ELEMS];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier bar;
    if (threadIdx.x == 0) {
        init(&bar, blockDim.x);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();

    block_barrier::arrival_token token;
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_global_to_shared(buf, in + blockIdx.x * ELEMS, sizeof(buf), bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(buf));
    } else {
        token = bar.arrive();
    }
    bar.wait(std::move(token));

    for (int i = threadIdx.x; i < ELEMS; i += blockDim.x)
        res[i] = buf[i ^ 1] * 3 + 1;
    cde::fence_proxy_async_shared_cta();   // make generic-proxy writes visible to the async proxy
    __syncthreads();
    if (threadIdx.x == 0) {
        cde::cp_async_bulk_shared_to_global(out + blockIdx.x * ELEMS, res, sizeof(res));
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

#define TILE 16

// 2D tensor-map tile load: block (bx, by) loads the 16x16 tile at column bx*16, row by*16 of a
// row-major float matrix through tmIn, transposes it in shared memory and stores it through tmOut
// (the transposed matrix) at column by*16, row bx*16.
extern "C" __global__ void tma_transpose_2d(const __grid_constant__ CUtensorMap tmIn,
                                            const __grid_constant__ CUtensorMap tmOut)
{
    __shared__ alignas(128) float tile[TILE][TILE];
    __shared__ alignas(128) float tileT[TILE][TILE];
#pragma nv_diag_suppress static_var_with_dynamic_init
    __shared__ block_barrier bar;
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        init(&bar, blockDim.x * blockDim.y);
        cde::fence_proxy_async_shared_cta();
    }
    __syncthreads();
    block_barrier::arrival_token token;
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        cde::cp_async_bulk_tensor_2d_global_to_shared(&tile, &tmIn, blockIdx.x * TILE, blockIdx.y * TILE, bar);
        token = cuda::device::barrier_arrive_tx(bar, 1, sizeof(tile));
    } else {
        token = bar.arrive();
    }
    bar.wait(std::move(token));
    tileT[threadIdx.x][threadIdx.y] = tile[threadIdx.y][threadIdx.x] * 2.0f;
    cde::fence_proxy_async_shared_cta();
    __syncthreads();
    if (threadIdx.x == 0 && threadIdx.y == 0) {
        cde::cp_async_bulk_tensor_2d_shared_to_global(&tmOut, blockIdx.y * TILE, blockIdx.x * TILE, &tileT);
        cde::cp_async_bulk_commit_group();
        cde::cp_async_bulk_wait_group_read<0>();
    }
}

// The same global -> shared bulk copy through cuda::ptx on a raw mbarrier, with an explicit
// try_wait loop on the phase parity, done twice (two phases of the same barrier).
// out[b * 2 * 512 + p * 512 + i] = chunk_p[511 - i] + p
extern "C" __global__ void ptx_bulk_mbarrier(const int* in, int* out)
{
    __shared__ alignas(128) int buf[512];
    __shared__ alignas(8) cuda::std::uint64_t mbar;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&mbar, 1);
        ptx::fence_mbarrier_init(ptx::sem_release, ptx::scope_cluster);
    }
    __syncthreads();
    for (int p = 0; p < 2; ++p) {
        if (threadIdx.x == 0) {
            ptx::cp_async_bulk(ptx::space_cluster, ptx::space_global, buf,
                               in + (blockIdx.x * 2 + p) * 512, (cuda::std::uint32_t)sizeof(buf), &mbar);
            (void)ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &mbar,
                                                 (cuda::std::uint32_t)sizeof(buf));
        }
        while (!ptx::mbarrier_try_wait_parity(&mbar, (unsigned)p)) {
        }
        for (int i = threadIdx.x; i < 512; i += blockDim.x)
            out[(blockIdx.x * 2 + p) * 512 + i] = buf[511 - i] + p;
        __syncthreads();   // all reads of buf done before the next bulk copy overwrites it
    }
}
