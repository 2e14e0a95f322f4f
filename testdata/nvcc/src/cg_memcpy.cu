// cooperative_groups: memcpy_async + wait / wait_prior, tiled_partition, cg::reduce,
// cg::inclusive_scan / exclusive_scan, thread_block_tile shuffles, coalesced groups.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define N_PER_BLOCK 512

// Each block copies two halves of its slice asynchronously, waits for the first with wait_prior<1>,
// then for the rest. Outputs per block: out[b*N + i] = inclusive scan over the tile of 32 of
// s[i] * s[N - 1 - i]; red[b * 16 + w] = per-warp sum of s[i] over the warp's elements.
extern "C" __global__ void cg_memcpy_scan(const int* in, int* out, int* red)
{
    __shared__ alignas(16) int s[N_PER_BLOCK];
    auto block = cg::this_thread_block();
    const int* src = in + blockIdx.x * N_PER_BLOCK;
    const int half = N_PER_BLOCK / 2;
    cg::memcpy_async(block, s, src, sizeof(int) * half);
    cg::memcpy_async(block, s + half, src + half, sizeof(int) * half);
    cg::wait_prior<1>(block);
    // first half is in shared memory
    int early = s[block.thread_rank() % half];
    cg::wait(block);

    auto tile = cg::tiled_partition<32>(block);
    int warp = block.thread_rank() / 32;
    for (int i = block.thread_rank(); i < N_PER_BLOCK; i += block.size()) {
        int x = s[i] * s[N_PER_BLOCK - 1 - i];
        out[blockIdx.x * N_PER_BLOCK + i] = cg::inclusive_scan(tile, x) + (early & 1);
    }
    int part = 0;
    for (int i = block.thread_rank(); i < N_PER_BLOCK; i += block.size())
        part += s[i];
    int wsum = cg::reduce(tile, part, cg::plus<int>());
    if (tile.thread_rank() == 0)
        red[blockIdx.x * 16 + warp] = wsum;
}

// Tile-level copies and collectives on tiles of 8 threads.
// out[gid] = exclusive scan of the tile's values + 1000 * tile max;
// out2[gid] = value of the next thread of the tile (shfl_down) | 1 << 16 if any value of the tile > 900
extern "C" __global__ void cg_tiles(const int* in, int* out, int* out2)
{
    __shared__ alignas(16) int s[256];
    auto block = cg::this_thread_block();
    auto tile8 = cg::tiled_partition<8>(block);
    int base = blockIdx.x * blockDim.x;
    int tbase = block.thread_rank() - tile8.thread_rank();
    cg::memcpy_async(tile8, s + tbase, in + base + tbase, sizeof(int) * 8);
    cg::wait(tile8);
    int v = s[block.thread_rank()];
    int mx = cg::reduce(tile8, v, cg::greater<int>());
    int ex = cg::exclusive_scan(tile8, v, cg::plus<int>());
    int nb = tile8.shfl_down(v, 1);
    out[base + block.thread_rank()] = ex + mx * 1000;
    out2[base + block.thread_rank()] = nb | (tile8.any(v > 900) ? 1 << 16 : 0);
}

// Coalesced groups formed in divergent code (compiled only: membership depends on scheduling).
extern "C" __global__ void cg_coalesced(const int* in, int* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid];
    auto g = cg::binary_partition(cg::tiled_partition<32>(cg::this_thread_block()), v > 100);
    int x = g.shfl(v, 0) + (int)g.meta_group_rank();
    if ((v & 1) == 0) {
        auto active = cg::coalesced_threads();
        int rank = active.thread_rank();
        int total = cg::reduce(active, v, cg::plus<int>());
        out[gid] = total + (rank << 20) + ((int)active.size() << 26);
    } else {
        out[gid] = x;
    }
}
