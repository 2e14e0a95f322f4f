#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Two exchange rounds through one shared buffer: each CTA reads its peer's values x, then x * x.
extern "C" __global__ void cluster_two_rounds(const int *in, int *out)
{
    __shared__ int buf[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    int *peer = cluster.map_shared_rank(buf, cluster.block_rank() ^ 1);
    int x = in[i];
    buf[tid] = x;
    cluster.sync();
    int a = peer[tid]; // [A]
    buf[tid] = x * x; // [B]
    cluster.sync();
    int b = peer[tid];
    cluster.sync();
    out[i] = a * 1000 + b;
}
