// Warp votes, match and reduce intrinsics, bit-manipulation helpers.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>

// For each thread writes 12 words: out[k * n + gid].
extern "C" __global__ void vote_patterns(const int* in, unsigned* out, int n)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[gid];
    const unsigned full = 0xffffffffu;

    unsigned ballot = __ballot_sync(full, v & 1);
    out[0 * n + gid] = ballot;
    out[1 * n + gid] = __any_sync(full, v > 1000);
    out[2 * n + gid] = __all_sync(full, v >= 0);
    out[3 * n + gid] = __match_any_sync(full, v & 7);
    int pred = 0;
    unsigned all = __match_all_sync(full, v >> 30, &pred);
    out[4 * n + gid] = all ^ (unsigned)(pred << 1);
    out[5 * n + gid] = __reduce_add_sync(full, (unsigned)(v & 0xff));
    out[6 * n + gid] = __reduce_min_sync(full, (unsigned)v);
    out[7 * n + gid] = (unsigned)__reduce_max_sync(full, v - 500);
    out[8 * n + gid] = __reduce_or_sync(full, (unsigned)v) ^ __reduce_and_sync(full, (unsigned)v | 0x100u)
                       ^ __reduce_xor_sync(full, (unsigned)v);
    out[9 * n + gid] = __popc(ballot) | (__ffs(ballot) << 8) | (__clz(ballot) << 16);
    out[10 * n + gid] = __brev((unsigned)v) ^ __byte_perm((unsigned)v, ballot, 0x3715);
    out[11 * n + gid] = __fns(ballot, lane, 1) + (unsigned)__popcll(((unsigned long long)ballot << 17) | (unsigned)v);
}

// Votes inside divergent code: the even lanes vote among themselves.
extern "C" __global__ void vote_divergent(const int* in, unsigned* out)
{
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31;
    int v = in[gid];
    unsigned r = 0;
    if ((lane & 1) == 0) {
        unsigned b = __ballot_sync(0x55555555u, v > 50);
        r = b + __match_any_sync(0x55555555u, v % 3);
    } else {
        r = __reduce_add_sync(0xaaaaaaaau, (unsigned)v);
    }
    out[gid] = r;
}
