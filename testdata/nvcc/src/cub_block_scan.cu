// cub::BlockScan: exclusive/inclusive sums, custom operators, block aggregates, several algorithms,
// with BlockLoad/BlockStore of several items per thread.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cuda/functional>

#define BLOCK 128
#define IPT 4

// ex[] = exclusive prefix sum of each block's BLOCK*IPT ints, inc[] = inclusive running max,
// agg[b] = block total.
extern "C" __global__ void cub_block_scan_i32(const int* in, int* ex, int* inc, int* agg)
{
    using Load = cub::BlockLoad<int, BLOCK, IPT, cub::BLOCK_LOAD_TRANSPOSE>;
    using Store = cub::BlockStore<int, BLOCK, IPT, cub::BLOCK_STORE_TRANSPOSE>;
    using Scan = cub::BlockScan<int, BLOCK>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Scan::TempStorage scan;
    } tmp;
    int base = blockIdx.x * BLOCK * IPT;
    int items[IPT], a[IPT], b[IPT];
    Load(tmp.load).Load(in + base, items);
    __syncthreads();
    int total;
    Scan(tmp.scan).ExclusiveSum(items, a, total);
    __syncthreads();
    for (int k = 0; k < IPT; ++k) b[k] = items[k] % 1000 - 500;
    Scan(tmp.scan).InclusiveScan(b, b, cuda::maximum<>{});
    __syncthreads();
    Store(tmp.store).Store(ex + base, a);
    __syncthreads();
    Store(tmp.store).Store(inc + base, b);
    if (threadIdx.x == 0) agg[blockIdx.x] = total;
}

// One item per thread with the raking and warp-scans algorithms, unsigned long long and float.
extern "C" __global__ void cub_block_scan_algos(const unsigned* in, unsigned long long* out64, float* outf)
{
    using ScanR = cub::BlockScan<unsigned long long, BLOCK, cub::BLOCK_SCAN_RAKING>;
    using ScanW = cub::BlockScan<float, BLOCK, cub::BLOCK_SCAN_WARP_SCANS>;
    __shared__ typename ScanR::TempStorage tr;
    __shared__ typename ScanW::TempStorage tw;
    int gid = blockIdx.x * BLOCK + threadIdx.x;
    unsigned x = in[gid];
    unsigned long long r;
    ScanR(tr).InclusiveSum((unsigned long long)x << 8, r);
    float f;
    ScanW(tw).ExclusiveSum((float)(x & 255) * 0.5f, f);
    out64[gid] = r;
    outf[gid] = f;
}
