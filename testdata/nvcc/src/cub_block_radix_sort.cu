// cub::BlockRadixSort: keys only, key-value pairs, descending, signed and float keys, blocked-to-striped.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cub/block/block_radix_sort.cuh>
#include <cub/block/block_load.cuh>
#include <cub/block/block_store.cuh>

#define BLOCK 64
#define IPT 4

// Sorts each block's BLOCK*IPT unsigned keys ascending (blocked arrangement).
extern "C" __global__ void cub_radix_sort_u32(const unsigned* in, unsigned* out)
{
    using Sort = cub::BlockRadixSort<unsigned, BLOCK, IPT>;
    __shared__ typename Sort::TempStorage tmp;
    unsigned keys[IPT];
    int base = blockIdx.x * BLOCK * IPT;
    for (int k = 0; k < IPT; ++k) keys[k] = in[base + threadIdx.x * IPT + k];
    Sort(tmp).Sort(keys);
    for (int k = 0; k < IPT; ++k) out[base + threadIdx.x * IPT + k] = keys[k];
}

// Signed keys with int payloads (the original index), sorted descending, stable, written striped.
extern "C" __global__ void cub_radix_sort_pairs_desc(const int* in, int* keys_out, int* vals_out)
{
    using Sort = cub::BlockRadixSort<int, BLOCK, IPT, int>;
    __shared__ typename Sort::TempStorage tmp;
    int keys[IPT], vals[IPT];
    int base = blockIdx.x * BLOCK * IPT;
    for (int k = 0; k < IPT; ++k) {
        keys[k] = in[base + threadIdx.x * IPT + k] % 50 - 25;
        vals[k] = threadIdx.x * IPT + k;
    }
    Sort(tmp).SortDescendingBlockedToStriped(keys, vals);
    for (int k = 0; k < IPT; ++k) {
        keys_out[base + k * BLOCK + threadIdx.x] = keys[k];
        vals_out[base + k * BLOCK + threadIdx.x] = vals[k];
    }
}

// Float keys (mapped from [0,1) to [-1,1)) loaded with BlockLoad (warp transpose), sorted ascending,
// stored back with BlockStore; the three share one union of temporary storage.
extern "C" __global__ void cub_radix_sort_f32(const float* in, float* out)
{
    using Load = cub::BlockLoad<float, BLOCK, IPT, cub::BLOCK_LOAD_WARP_TRANSPOSE>;
    using Store = cub::BlockStore<float, BLOCK, IPT, cub::BLOCK_STORE_WARP_TRANSPOSE>;
    using Sort = cub::BlockRadixSort<float, BLOCK, IPT>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Store::TempStorage store;
        typename Sort::TempStorage sort;
    } tmp;
    float keys[IPT];
    int base = blockIdx.x * BLOCK * IPT;
    Load(tmp.load).Load(in + base, keys);
    for (int k = 0; k < IPT; ++k) keys[k] = keys[k] * 2.0f - 1.0f;
    __syncthreads();
    Sort(tmp.sort).Sort(keys);
    __syncthreads();
    Store(tmp.store).Store(out + base, keys);
}
