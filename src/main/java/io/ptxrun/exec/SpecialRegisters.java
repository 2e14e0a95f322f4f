package io.ptxrun.exec;

import io.ptxrun.ast.SpecialRegister;
import io.ptxrun.exec.copy.ClusterGeometry;

/**
 * The special registers (%tid, %ctaid, %laneid, %clock, %globaltimer, the lane masks...) as a lane
 * of the CTA running now reads them: the launch's shape, the lane's place in it, and a virtual
 * clock that makes runs reproducible.
 */
final class SpecialRegisters {
    private final Engine engine;
    private final KernelLaunch launch;
    private final ClusterGeometry geometry;

    SpecialRegisters(Engine engine, KernelLaunch launch, ClusterGeometry geometry) {
        this.engine = engine;
        this.launch = launch;
        this.geometry = geometry;
    }

    /**
     * Whether every lane of a warp reads r alike at one instruction: the launch's, cluster's and
     * CTA's shape and place, and the warp's own number (not a lane's %tid, %laneid or lane masks,
     * and not the clocks, which count the instructions run).
     */
    static boolean sameForEveryLane(SpecialRegister r) {
        return switch (r) {
            case NTID, CTAID, NCTAID, WARPID, NWARPID, CLUSTER_CTAID, CLUSTER_NCTAID, CLUSTERID, NCLUSTERID,
                    CLUSTER_CTARANK, CLUSTER_NCTARANK, IS_EXPLICIT_CLUSTER -> true;
            default -> false;
        };
    }

    /** Register r (component c: 'x', 'y', 'z', or another for a scalar) as lane l of w reads it. */
    long read(Warp w, SpecialRegister r, char c, int l) {
        Cta cta = engine.cta;
        int[] blk = launch.block();
        int[] grid = launch.grid();
        int[] cl = launch.cluster();
        int ci = c == 'y' ? 1 : c == 'z' ? 2 : 0;
        return switch (r) {
            case TID -> ci == 0 ? w.tidX[l] : ci == 1 ? w.tidY[l] : w.tidZ[l];
            case NTID -> blk[ci];
            case CTAID -> cta.ctaid[ci];
            case NCTAID -> grid[ci];
            case LANEID -> l;
            case WARPID -> w.id;
            case NWARPID -> cta.warps.length;
            case CLUSTER_CTAID -> cta.ctaid[ci] % cl[ci];
            case CLUSTER_NCTAID -> cl[ci];
            case CLUSTERID -> cta.ctaid[ci] / cl[ci];
            case NCLUSTERID -> grid[ci] / cl[ci];
            case CLUSTER_CTARANK -> cta.rank;
            case CLUSTER_NCTARANK -> cl[0] * cl[1] * cl[2];
            case IS_EXPLICIT_CLUSTER -> geometry.isExplicitCluster() ? 1 : 0;
            case LANEMASK_EQ -> (1L << l) & 0xffffffffL;
            case LANEMASK_LE -> ((2L << l) - 1) & 0xffffffffL;
            case LANEMASK_LT -> ((1L << l) - 1) & 0xffffffffL;
            case LANEMASK_GE -> (~((1L << l) - 1)) & 0xffffffffL;
            case LANEMASK_GT -> (~((2L << l) - 1)) & 0xffffffffL;
            // A virtual clock: thread-instructions executed so far, so runs are reproducible.
            // Counted per cluster, so that the values do not depend on which worker ran which clusters.
            // It stands still while the cluster is stalled (see Scheduler.clock()).
            case CLOCK -> engine.scheduler.clock() & 0xffffffffL;
            case CLOCK_HI -> (engine.scheduler.clock() >>> 32) & 0xffffffffL;
            case CLOCK64 -> engine.scheduler.clock();
            case GLOBALTIMER -> engine.scheduler.clock() * 1000;
            case GLOBALTIMER_LO -> (engine.scheduler.clock() * 1000) & 0xffffffffL;
            case GLOBALTIMER_HI -> (engine.scheduler.clock() * 1000) >>> 32;
            case SMID, GRIDID, PM, PM_64, ENVREG -> 0;
            case NSMID -> 132;
            case DYNAMIC_SMEM_SIZE -> launch.sharedBytes();
            case TOTAL_SMEM_SIZE, AGGR_SMEM_SIZE -> cta.shared.length;
            default -> 0;
        };
    }
}
