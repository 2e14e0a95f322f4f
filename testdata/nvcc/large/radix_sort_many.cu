// Parser benchmark input: many instantiations of CUB block-level radix sort, reduce and scan over
// key types, block sizes and items per thread, compiled into one large PTX module.
// nvcc-targets: sm_90
#include <cuda_runtime.h>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>
#include <cuda/functional>

template <typename K, int BLOCK, int IPT>
__global__ void sort_keys(const K* in, K* out)
{
    using Load = cub::BlockLoad<K, BLOCK, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<K, BLOCK, IPT>;
    using Store = cub::BlockStore<K, BLOCK, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Sort::TempStorage sort;
        typename Store::TempStorage store;
    } tmp;
    K keys[IPT];
    int base = blockIdx.x * BLOCK * IPT;
    Load(tmp.load).Load(in + base, keys);
    __syncthreads();
    Sort(tmp.sort).Sort(keys);
    __syncthreads();
    Store(tmp.store).Store(out + base, keys);
}

template <typename K, typename V, int BLOCK, int IPT>
__global__ void sort_pairs_desc(const K* kin, const V* vin, K* kout, V* vout)
{
    using Sort = cub::BlockRadixSort<K, BLOCK, IPT, V>;
    __shared__ typename Sort::TempStorage tmp;
    K keys[IPT];
    V vals[IPT];
    int base = blockIdx.x * BLOCK * IPT;
    for (int k = 0; k < IPT; ++k) {
        keys[k] = kin[base + threadIdx.x * IPT + k];
        vals[k] = vin[base + threadIdx.x * IPT + k];
    }
    Sort(tmp).SortDescendingBlockedToStriped(keys, vals);
    for (int k = 0; k < IPT; ++k) {
        kout[base + k * BLOCK + threadIdx.x] = keys[k];
        vout[base + k * BLOCK + threadIdx.x] = vals[k];
    }
}

template <typename T, int BLOCK, int IPT, cub::BlockReduceAlgorithm ALG>
__global__ void reduce_block(const T* in, T* out)
{
    using BR = cub::BlockReduce<T, BLOCK, ALG>;
    __shared__ typename BR::TempStorage tmp;
    T items[IPT];
    for (int k = 0; k < IPT; ++k) items[k] = in[(blockIdx.x * BLOCK + threadIdx.x) * IPT + k];
    T s = BR(tmp).Sum(items);
    __syncthreads();
    T m = BR(tmp).Reduce(items, cuda::maximum<>{});
    if (threadIdx.x == 0) {
        out[2 * blockIdx.x] = s;
        out[2 * blockIdx.x + 1] = m;
    }
}

template <typename T, int BLOCK, int IPT, cub::BlockScanAlgorithm ALG>
__global__ void scan_block(const T* in, T* ex, T* inc)
{
    using Scan = cub::BlockScan<T, BLOCK, ALG>;
    __shared__ typename Scan::TempStorage tmp;
    T items[IPT], a[IPT], b[IPT];
    for (int k = 0; k < IPT; ++k) items[k] = in[(blockIdx.x * BLOCK + threadIdx.x) * IPT + k];
    Scan(tmp).ExclusiveSum(items, a);
    __syncthreads();
    Scan(tmp).InclusiveScan(items, b, cuda::maximum<>{});
    for (int k = 0; k < IPT; ++k) {
        ex[(blockIdx.x * BLOCK + threadIdx.x) * IPT + k] = a[k];
        inc[(blockIdx.x * BLOCK + threadIdx.x) * IPT + k] = b[k];
    }
}

#define SORT_KEYS(K, B, I) template __global__ void sort_keys<K, B, I>(const K*, K*);
#define SORT_PAIRS(K, V, B, I) template __global__ void sort_pairs_desc<K, V, B, I>(const K*, const V*, K*, V*);
#define REDUCE(T, B, I, A) template __global__ void reduce_block<T, B, I, cub::A>(const T*, T*);
#define SCAN(T, B, I, A) template __global__ void scan_block<T, B, I, cub::A>(const T*, T*, T*);

#define SORT_KEYS_TYPE(K) \
    SORT_KEYS(K, 64, 4) SORT_KEYS(K, 128, 4) SORT_KEYS(K, 128, 8) SORT_KEYS(K, 256, 2) \
    SORT_KEYS(K, 64, 8) SORT_KEYS(K, 256, 8) SORT_KEYS(K, 128, 16) SORT_KEYS(K, 512, 4)
SORT_KEYS_TYPE(unsigned char)
SORT_KEYS_TYPE(signed char)
SORT_KEYS_TYPE(unsigned short)
SORT_KEYS_TYPE(short)
SORT_KEYS_TYPE(unsigned int)
SORT_KEYS_TYPE(int)
SORT_KEYS_TYPE(unsigned long long)
SORT_KEYS_TYPE(long long)
SORT_KEYS_TYPE(float)
SORT_KEYS_TYPE(double)

#define SORT_PAIRS_TYPE(K) \
    SORT_PAIRS(K, int, 128, 4) SORT_PAIRS(K, unsigned long long, 64, 2) SORT_PAIRS(K, int, 256, 8) SORT_PAIRS(K, double, 128, 8)
SORT_PAIRS_TYPE(unsigned int)
SORT_PAIRS_TYPE(int)
SORT_PAIRS_TYPE(unsigned long long)
SORT_PAIRS_TYPE(float)
SORT_PAIRS_TYPE(double)

#define REDUCE_TYPE(T) \
    REDUCE(T, 128, 4, BLOCK_REDUCE_WARP_REDUCTIONS) REDUCE(T, 256, 2, BLOCK_REDUCE_RAKING) \
    REDUCE(T, 128, 1, BLOCK_REDUCE_RAKING_COMMUTATIVE_ONLY) REDUCE(T, 256, 8, BLOCK_REDUCE_WARP_REDUCTIONS)
REDUCE_TYPE(int)
REDUCE_TYPE(unsigned int)
REDUCE_TYPE(long long)
REDUCE_TYPE(float)
REDUCE_TYPE(double)

#define SCAN_TYPE(T) \
    SCAN(T, 128, 4, BLOCK_SCAN_WARP_SCANS) SCAN(T, 256, 2, BLOCK_SCAN_RAKING) \
    SCAN(T, 128, 1, BLOCK_SCAN_RAKING_MEMOIZE) SCAN(T, 64, 8, BLOCK_SCAN_WARP_SCANS) \
    SCAN(T, 256, 4, BLOCK_SCAN_RAKING_MEMOIZE)
SCAN_TYPE(int)
SCAN_TYPE(unsigned int)
SCAN_TYPE(long long)
SCAN_TYPE(float)
SCAN_TYPE(double)
