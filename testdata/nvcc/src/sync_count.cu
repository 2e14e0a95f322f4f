// Block-wide vote barriers (__syncthreads_count/_and/_or), __syncwarp, memory fences,
// and cooperative-groups block sync.
// nvcc-targets: sm_80 sm_90
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

// out[4 * b + 0] = count of threads with in > thr, 1 = all in >= 0 after masking, 2 = any in == thr,
// 3 = count after a second round with a different predicate. rot[gid] = neighbour through shared memory.
extern "C" __global__ void sync_votes(const int* in, int* out, int* rot, int thr)
{
    __shared__ int s[1024];
    int gid = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[gid] & 0xfff;
    int c = __syncthreads_count(v > thr);
    int a = __syncthreads_and(v < 4000 || (gid & 1));
    int o = __syncthreads_or(v == thr);
    s[threadIdx.x] = v;
    __threadfence_block();
    int c2 = __syncthreads_count((v & 3) == (int)(blockIdx.x & 3));
    int nb = s[(threadIdx.x + 1) % blockDim.x];
    __syncwarp();
    auto block = cg::this_thread_block();
    block.sync();
    s[threadIdx.x] = nb + v;
    __threadfence();
    block.sync();
    rot[gid] = s[blockDim.x - 1 - threadIdx.x];
    if (threadIdx.x == 0) {
        out[4 * blockIdx.x + 0] = c;
        out[4 * blockIdx.x + 1] = a;
        out[4 * blockIdx.x + 2] = o;
        out[4 * blockIdx.x + 3] = c2;
    }
}
