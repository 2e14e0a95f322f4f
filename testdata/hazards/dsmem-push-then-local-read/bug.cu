#include <cooperative_groups.h>
namespace cg = cooperative_groups;
// Each CTA pushes its inputs into its peer's shared inbox, then reads its own inbox.
extern "C" __global__ void cluster_swap(const int *in, int *out)
{
    __shared__ int inbox[128];
    cg::cluster_group cluster = cg::this_cluster();
    unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
    cluster.sync();
    int *peer_inbox = cluster.map_shared_rank(inbox, cluster.block_rank() ^ 1);
    peer_inbox[tid] = in[i] + 1; // [A]
    out[i] = inbox[blockDim.x - 1 - tid]; // [B]
    cluster.sync();
}
