package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import io.ptxrun.exec.order.Conflict;
import io.ptxrun.exec.order.HazardLog;
import io.ptxrun.exec.order.MemoryOrder;
import io.ptxrun.exec.order.Scopes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns the detector's findings into diagnostics that name both sites (instruction, line and
 * column), the threads (tid, ctaid; for a copy, the thread that issued it), the address with the
 * variable or buffer it lies in, and what would have ordered the two accesses.
 */
final class HazardReports {
    private final Decoder.Program program;
    private final KernelLaunch launch;
    private final int slots;
    private final int threadsPerCta;
    private final boolean warnOnly;
    /** CUDA lines of the module's instructions (-lineinfo), for the site a report names in its text. */
    private final io.ptxrun.diag.SourceMap cuda;

    HazardReports(Decoder.Program program, KernelLaunch launch, int slots,
            int threadsPerCta, boolean warnOnly) {
        this.program = program;
        this.launch = launch;
        this.slots = slots;
        this.threadsPerCta = threadsPerCta;
        this.warnOnly = warnOnly;
        this.cuda = io.ptxrun.diag.SourceMap.of(launch.module());
    }

    List<Diagnostic> diagnostics(List<HazardLog.Entry> entries) {
        List<Diagnostic> out = new ArrayList<>();
        for (HazardLog.Entry e : entries) {
            Conflict c = e.first;
            Op second = program.ops[c.secondPc()];
            String times = e.count > 1 ? "; seen " + e.count + " times" : "";
            String message;
            if (c.rule().startsWith("uninit")) {
                message = String.format("uninitialized read: '%s' by %s reads %s, which no thread has written"
                        + " (%s)%s", second.mnemonic(), who(c.secondSlot(), second), where(c),
                        c.rule().equals("uninit.global")
                                ? "the launch marks its buffer uninitialized: like cudaMalloc'd memory it holds"
                                + " whatever was there; write it in the kernel, or cudaMemset it, before reading"
                                : "shared memory starts undefined on the GPU; write it, or copy into it, before reading",
                        times);
            } else {
                // Report at the thread's access: an async copy's side is named as the other site.
                boolean swap = isAgent(c.secondSlot()) && !isAgent(c.firstSlot());
                int herePc = swap ? c.firstPc() : c.secondPc(), therePc = swap ? c.secondPc() : c.firstPc();
                long hereSlot = swap ? c.firstSlot() : c.secondSlot(), thereSlot = swap ? c.secondSlot() : c.firstSlot();
                boolean hereWrite = swap ? c.firstWrite() : c.secondWrite();
                boolean thereWrite = swap ? c.secondWrite() : c.firstWrite();
                second = program.ops[herePc];
                Op first = program.ops[therePc];
                String kind = c.rule().startsWith("race.") ? " (" + c.kind() + ")" : "";
                String between = c.rule().equals("async.missing-proxy-fence")
                        ? "ordered between the threads, but not between the generic proxy that wrote and the async"
                        + " proxy that reads"
                        : c.scope() >= 0 ? "both strong but not morally strong: the scope " + Scopes.name(c.scope())
                        + " does not include the other thread, so the two race as plain accesses do (memory"
                        + " consistency model: morally strong, data race)"
                        : "with nothing ordering the two";
                boolean wgmma = first.code == OpCode.WARPGROUP || second.code == OpCode.WARPGROUP;
                message = String.format("%s%s: '%s' at %s by %s %s %s, and '%s' here by %s %s it, %s; %s%s",
                        wgmma && c.rule().equals("async.overwrite-during-read")
                                ? "write to a wgmma.mma_async operand that the wgmma may still be reading"
                                : title(c.rule()), kind, first.mnemonic(), first.pos + cuda.describe(first.pos),
                        who(thereSlot, first), verb(thereWrite), where(c),
                        second.mnemonic(), who(hereSlot, second), verb(hereWrite), between,
                        remedy(c, wgmma), times);
            }
            out.add(warnOnly ? Diagnostic.warning(second.pos, c.rule(), message)
                    : Diagnostic.error(second.pos, c.rule(), message));
        }
        return out;
    }

    private static String title(String rule) {
        return switch (rule) {
            case "race.shared" -> "data race on shared memory";
            case "race.dsmem" -> "data race on distributed shared memory";
            case "race.global" -> "data race on global memory";
            case "async.read-before-complete" -> "read of an asynchronous copy's destination before the copy is"
                    + " known to be complete";
            case "async.overwrite-during-read" -> "write to the source of an asynchronous copy that may still be"
                    + " reading it";
            case "async.missing-proxy-fence" -> "generic write read by the async proxy without a proxy fence";
            default -> rule;
        };
    }

    private boolean isAgent(long slot) {
        return slot % slots >= slots / 2;
    }

    private static String verb(boolean write) {
        return write ? "writes" : "reads";
    }

    /** What would have ordered the pair; {@code wgmma}: one side is a wgmma.mma_async's operand read. */
    private String remedy(Conflict c, boolean wgmma) {
        long a = c.firstSlot(), b = c.secondSlot();
        if (wgmma) {
            switch (c.rule()) {
                case "async.missing-proxy-fence":
                    return "wgmma.mma_async reads its shared-memory operands through the async proxy: the writing"
                            + " threads need fence.proxy.async.shared::cta (CUTLASS fence_view_async_shared) after"
                            + " their writes and before the barrier that orders them with the wgmma (9.7.15.3)";
                case "async.overwrite-during-read":
                    return "wgmma.mma_async reads its operands until the wgmma.wait_group that covers it: wait for it"
                            + " (warpgroup_wait<N>), then release the buffer (a barrier or mbarrier arrive) before it is"
                            + " written again (9.7.15.6)";
                case "async.read-before-complete":
                    return "the copy's completion must be observed before the wgmma.mma_async is issued: a successful"
                            + " mbarrier try_wait / test_wait of the phase its complete-tx is counted in, by the threads"
                            + " of the warpgroup (9.7.9.25.1)";
                default:
                    break;
            }
        }
        switch (c.rule()) {
            case "async.read-before-complete":
                if (!isAgent(c.firstSlot()) && isAgent(c.secondSlot()) && !c.firstWrite()) {
                    // The read came first and the copy overwrote what it read: the read was not
                    // released to the copy's issuer before the copy was issued.
                    return "the read must be ordered before the copy is issued, which overwrites what it read: the"
                            + " reading threads release the buffer (a barrier, or an mbarrier arrive that the issuing"
                            + " thread waits on, with __syncwarp() first when one lane arrives for its warp) and the"
                            + " issuer acquires that before issuing the copy (9.7.9.25.1)";
                }
                return "the copy's completion must be observed first: cp.async.wait_group / wait_all by the issuing"
                        + " thread (then a barrier for the others), cp.async.bulk.wait_group, or a successful"
                        + " mbarrier test_wait / try_wait of the phase its complete-tx is counted in (9.7.9.25.1)";
            case "async.missing-proxy-fence":
                return "bulk and tensor copies read through the async proxy: the writing threads need"
                        + " fence.proxy.async (fence_proxy_async / tma_store_fence) after their writes and before the"
                        + " barrier that orders them with the copy's issue (9.7.13.4 proxies)";
            case "async.overwrite-during-read":
                return "the copy reads its source until it completes: cp.async.bulk.wait_group.read by the issuing"
                        + " thread (then a barrier) before the source is written again (9.7.9.25.4)";
            default:
                break;
        }
        long clusterA = a / slots, clusterB = b / slots;
        int ta = (int) (a % slots % (slots / 2)), tb = (int) (b % slots % (slots / 2));
        if (c.scope() >= 0) {
            return clusterA == clusterB
                    ? "give both a scope that includes the two threads: .cluster or wider (.gpu: atomicAdd rather than"
                    + " atomicAdd_block, cuda::thread_scope_device rather than thread_scope_block)"
                    : "give both a scope that includes the two threads: .gpu (atomicAdd rather than atomicAdd_block,"
                    + " cuda::thread_scope_device rather than thread_scope_block, __threadfence() rather than"
                    + " __threadfence_block())";
        }
        if (clusterA != clusterB || ta / threadsPerCta != tb / threadsPerCta) {
            if (clusterA == clusterB) {
                return "CTAs of a cluster are ordered by barrier.cluster.arrive.release / barrier.cluster.wait.acquire"
                        + " (cluster.sync()) or an mbarrier both use";
            }
            return "threads of different CTAs are ordered only by a release/acquire pair through the same location"
                    + " (a fence before the signalling atomic and after the observing one, e.g. __threadfence()), or"
                    + " by separate kernel launches";
        }
        if ((ta % threadsPerCta) / 32 == (tb % threadsPerCta) / 32) {
            return "both threads are lanes of one warp, which run independently: warp-synchronous code needs"
                    + " __syncwarp() (bar.warp.sync) between the two accesses";
        }
        return "a barrier both threads reach between the two accesses (bar.sync / __syncthreads(), or a named"
                + " barrier both use) would order them";
    }

    /** The thread (or the async operation at {@code op} and the thread that issued it) of a launch-wide slot. */
    private String who(long slot, Op op) {
        long cluster = slot / slots;
        int local = (int) (slot % slots);
        int threads = slots / 2;
        boolean agent = local >= threads;
        int t = local % threads;
        int rank = t / threadsPerCta;
        int tid = t % threadsPerCta;
        int[] b = launch.block();
        String thread = String.format("thread tid (%d,%d,%d) of CTA ctaid %s", tid % b[0], (tid / b[0]) % b[1],
                tid / (b[0] * b[1]), ctaid(cluster, rank));
        if (!agent) {
            return thread;
        }
        return op.code == OpCode.WARPGROUP ? "the warpgroup of " + thread + " (its asynchronous operand read)"
                : "an asynchronous copy issued by " + thread;
    }

    private String ctaid(long clusterIndex, int rank) {
        int[] g = launch.grid();
        int[] cl = launch.cluster();
        int ncx = g[0] / cl[0], ncy = g[1] / cl[1];
        long x = clusterIndex % ncx * cl[0] + rank % cl[0];
        long y = (clusterIndex / ncx) % ncy * cl[1] + (rank / cl[0]) % cl[1];
        long z = clusterIndex / ((long) ncx * ncy) * cl[2] + rank / (cl[0] * cl[1]);
        return "(" + x + "," + y + "," + z + ")";
    }

    /** The address with the variable or buffer it lies in. */
    private String where(Conflict c) {
        long at = MemoryOrder.offsetOf(c.address());
        if (c.space() == MemoryOrder.GLOBAL) {
            String name = launch.memory().describe(at);
            return name != null ? name : String.format("global 0x%x", at);
        }
        int rank = MemoryOrder.rankOf(c.address());
        Map.Entry<Integer, String> v = program.sharedNames.floorEntry((int) at);
        String var = v == null ? "" : String.format(" ('%s'+%d)", v.getValue(), at - v.getKey());
        String peer = launch.cluster()[0] * launch.cluster()[1] * launch.cluster()[2] > 1
                ? " of the CTA of cluster rank " + rank : "";
        return String.format("shared 0x%x%s%s", at, var, peer);
    }
}
