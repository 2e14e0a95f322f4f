package io.ptxrun.exec;

import io.ptxrun.ast.Function;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.exec.copy.ClusterGeometry;
import io.ptxrun.exec.order.HazardLog;
import io.ptxrun.exec.order.MemoryOrder;
import io.ptxrun.launch.DeviceOutput;
import io.ptxrun.launch.Dim3;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One launch's grid, from the module to the result: the module decoded, the launch checked against
 * what can be simulated (cluster shape, thread count, shared memory), the regions to compile, and
 * how many workers the memory budget holds; then the grid's clusters run on that many
 * {@link Engine}s ({@link CtaPool}), and what the workers counted, printed and found is gathered
 * into one {@link ExecResult}. What every worker shares (the program, the entry, the compiled
 * regions, the cluster geometry, the device heap, the tensor maps awaiting a proxy fence) is here;
 * the engine is what instructions do, the {@link Scheduler} which warp runs when.
 */
final class Grid {
    final KernelLaunch launch;
    final Decoder.Program program;
    final Decoder.FuncInfo entry;
    /** Compiled straight-line regions, or null when only the interpreter runs. */
    final Regions regions;
    final ClusterGeometry geometry;
    final int threadsPerCta;
    /** The tensor maps written by tensormap.replace/cp_fenceproxy and not yet fenced for the tensormap proxy. */
    final Set<Long> unfencedMaps = ConcurrentHashMap.newKeySet();
    final DeviceLibrary.Heap heap = new DeviceLibrary.Heap();
    private final Function kernel;
    private final int ctasPerCluster;
    private final int clusters;

    private Grid(KernelLaunch launch, Function kernel, Decoder.Program program, Regions regions,
                 Decoder.FuncInfo entry) {
        this.launch = launch;
        this.kernel = kernel;
        this.program = program;
        this.regions = regions;
        this.entry = entry;
        int[] g = launch.grid();
        int[] cl = launch.cluster();
        int[] b = launch.block();
        this.ctasPerCluster = cl[0] * cl[1] * cl[2];
        this.geometry = new ClusterGeometry(new Dim3(g[0], g[1], g[2]), new Dim3(cl[0], cl[1], cl[2]),
                ctasPerCluster > 1);
        this.clusters = (int) ((long) g[0] * g[1] * g[2] / ctasPerCluster);
        this.threadsPerCta = b[0] * b[1] * b[2];
    }

    /** Runs the launch; what goes wrong in it, the launch's setup included, is in the result. */
    static ExecResult run(KernelLaunch launch) {
        Function kernel = launch.module().function(launch.kernel()).orElse(null);
        if (kernel == null || !kernel.isEntry()) {
            return error(launch.module().pos(), "exec.kernel",
                    "no kernel (.entry with a body) named '" + launch.kernel() + "'");
        }
        Decoder.Program program;
        try {
            program = Decoder.decode(launch.module(), launch.memory());
        } catch (Decoder.DecodeError e) {
            return error(e.pos, "exec.decode", e.getMessage());
        } catch (MemoryFault e) {
            return error(launch.module().pos(), "exec.fault", e.getMessage());
        }
        Compilation compilation = launch.limits().compilation();
        Regions regions = compilation == Compilation.NONE ? null : new Regions(program.ops,
                compilation == Compilation.ALL ? 1 : Regions.HOT, launch.limits().sync().detectHazards());
        int[] cl = launch.cluster();
        int[] g = launch.grid();
        if (g[0] % cl[0] != 0 || g[1] % cl[1] != 0 || g[2] % cl[2] != 0) {
            return error(kernel.pos(), "exec.cluster", String.format(
                    "grid (%d,%d,%d) is not a whole number of clusters (%d,%d,%d)",
                    g[0], g[1], g[2], cl[0], cl[1], cl[2]));
        }
        Decoder.FuncInfo entry = program.byName.get(kernel.name());
        String tooLarge = overLimits(launch, program);
        if (tooLarge != null) {
            return error(kernel.pos(), "exec.limit", tooLarge);
        }
        return new Grid(launch, kernel, program, regions, entry).run();
    }

    private static ExecResult error(io.ptxrun.ast.SourcePos pos, String rule, String message) {
        return new ExecResult(ExecStatus.ERROR, List.of(Diagnostic.error(pos, rule, message)), 0);
    }

    /**
     * What makes the launch impossible to simulate faithfully, checked before anything runs: extents
     * that are not positive, more grid threads than the limit, shared memory beyond a CTA's; null
     * when it fits. (The launch file already holds grid and block to the CUDA limits.)
     */
    private static String overLimits(KernelLaunch launch, Decoder.Program program) {
        int[] g = launch.grid();
        int[] b = launch.block();
        int[] cl = launch.cluster();
        for (int i = 0; i < 3; i++) {
            if (g[i] < 1 || b[i] < 1 || cl[i] < 1) {
                return String.format("grid (%d,%d,%d), block (%d,%d,%d) and cluster (%d,%d,%d) need positive extents",
                        g[0], g[1], g[2], b[0], b[1], b[2], cl[0], cl[1], cl[2]);
            }
        }
        long ctas = (long) g[0] * g[1] * g[2];
        long perCta = (long) b[0] * b[1] * b[2];
        long max = launch.limits().maxThreads();
        if (perCta > max || ctas > max / perCta || ctas > Integer.MAX_VALUE) {
            return String.format("the grid (%d,%d,%d) of blocks (%d,%d,%d) has %s threads, more than the %d ptxrun"
                    + " simulates (--max-threads)%s", g[0], g[1], g[2], b[0], b[1], b[2],
                    BigInteger.valueOf(ctas).multiply(BigInteger.valueOf(perCta)), max,
                    ctas > Integer.MAX_VALUE ? "; at most " + Integer.MAX_VALUE + " CTAs" : "");
        }
        long shared = program.sharedStatic + launch.sharedBytes();
        if (shared > ModuleLayout.MAX_SHARED) {
            return "the CTA needs " + shared + " bytes of shared memory (" + program.sharedStatic + " static, "
                    + launch.sharedBytes() + " dynamic), more than the " + ModuleLayout.MAX_SHARED + " a CTA can have";
        }
        return null;
    }

    /**
     * Runs the clusters on as many workers as the launch asks for and the memory budget holds. On
     * one worker each cluster gets exactly what the clusters before it in grid order left of the
     * instruction budget, and a stop leaves the clusters after it unstarted. Several workers run
     * clusters ahead of their turn, sharing what is left of the budget as they go; their result is
     * the same whenever all the clusters together stayed within the budget and no cluster stopped
     * the run while later ones ran. Otherwise (the clusters together ran past the budget, whether or
     * not one of them ran out of its share, or a stop came after later clusters had started) the
     * result is discarded, memory is rolled back to its state before the launch, and the launch runs
     * again on one worker: at most the budget again, on a run that ends in a timeout or an error.
     * Kept as they are: a stop by the wall clock, and a spin that only another cluster could end
     * (its report is about the clusters that ran together).
     */
    private ExecResult run() {
        long wall = launch.limits().maxWallMillis();
        long wallDeadline = wall == 0 ? 0 : (System.nanoTime() + wall * 1_000_000) | 1;
        GlobalMemory global = launch.memory();
        int wanted = launch.limits().threadsFor(clusters);
        if (wanted > 1) {
            // Before the workers' memory is counted: a rollback gives it back.
            global.keepOriginals();
        }
        int threads = reserveWorkers(wanted);
        if (wanted > 1 && threads <= 1) {
            global.dropOriginals();
        }
        if (threads == 0) {
            return noRoomForWorkers();
        }
        Attempt ahead = runOn(threads, wallDeadline);
        if (threads == 1) {
            return ahead.result;
        }
        Engine.Stop stop = ahead.stop;
        boolean withinBudget = ahead.result.instructionsExecuted() <= launch.limits().maxInstructions();
        if (stop != null && stop.wallClock
                || withinBudget && (stop == null || stop.spinAmongClusters || !stop.laterClustersRan)) {
            global.dropOriginals();
            return ahead.result;
        }
        global.rollBack();
        launch.limits().progress().restart();
        if (launch.limits().trace() != null) {
            launch.limits().trace().clear();
        }
        Grid again = new Grid(launch, kernel, program, regions, entry);
        return again.reserveWorkers(1) == 0 ? noRoomForWorkers() : again.runOn(1, wallDeadline).result;
    }

    /** What one run of the grid gave, and what stopped it (null: nothing). */
    private record Attempt(ExecResult result, Engine.Stop stop) {}

    /** Bytes of shared and local memory a worker holds for the cluster in flight. */
    private long perCluster() {
        return ctasPerCluster * (program.sharedStatic + launch.sharedBytes()
                + (long) threadsPerCta * Math.max(16, entry.frameBytes));
    }

    /**
     * Counts the memory of at most {@code wanted} workers against the budget: fewer when it does not
     * hold them all (the result does not depend on how many); 0 when not even one fits.
     */
    private int reserveWorkers(int wanted) {
        int threads = wanted;
        while (!launch.memory().reserve(threads * perCluster())) {
            if (threads == 1) {
                return 0;
            }
            threads = threads / 2;
        }
        return threads;
    }

    private ExecResult noRoomForWorkers() {
        GlobalMemory global = launch.memory();
        return error(kernel.pos(), "exec.limit", "the CTAs in flight need " + perCluster() + " bytes of shared"
                + " and local memory, more than is left of the simulated-memory budget of " + global.budget()
                + " bytes (--max-memory)");
    }

    /** Runs the grid's clusters on that many workers, whose memory is reserved. */
    private Attempt runOn(int threads, long wallDeadline) {
        // A cluster is the unit of work: its CTAs share memory and barriers, separate clusters do not.
        // Each worker holds one cluster's shared memory and entry frames at a time.
        GlobalMemory global = launch.memory();
        Engine[] workers = new Engine[threads];
        workers[0] = new Engine(this, null);
        workers[0].scheduler.startWallClock(wallDeadline);
        for (int k = 1; k < threads; k++) {
            workers[k] = new Engine(this, workers[0].scheduler);
        }
        AtomicInteger left = new AtomicInteger(clusters);
        for (Engine e : workers) {
            e.scheduler.shareGrid(left, threads);
        }
        MemoryOrder.Launch shadow = null;
        if (launch.limits().sync().detectHazards()) {
            // The shadow of global memory takes up to 8 bytes per byte touched: it gets the memory
            // budget left after the launch's own, and stops checking (saying so) beyond it.
            shadow = new MemoryOrder.Launch(Math.max(0, global.budget() - global.reserved()), threads,
                    global.uninitialized(), !program.ordersClusters);
            for (Engine e : workers) {
                e.order = new MemoryOrder(shadow, threadsPerCta, ctasPerCluster, program.casCompared);
                e.order.pendingWrites(e::pendingAsyncWrite);
            }
        }
        launch.limits().progress().start(clusters);
        Scheduler[] schedulers = Arrays.stream(workers).map(e -> e.scheduler).toArray(Scheduler[]::new);
        Engine.Stop stop;
        try {
            stop = CtaPool.run(schedulers, clusters);
        } finally {
            launch.limits().progress().finished(schedulers);
        }
        return new Attempt(result(workers, stop, shadow), stop);
    }

    /**
     * The workers' instruction counts, warnings, hazard findings and printed output as one result,
     * in an order that does not depend on which worker ran which cluster.
     */
    private ExecResult result(Engine[] workers, Engine.Stop stop, MemoryOrder.Launch shadow) {
        long total = 0;
        List<Diagnostic> reports = new ArrayList<>();
        List<HazardLog> logs = new ArrayList<>();
        for (Engine e : workers) {
            total += e.executed;
            reports.addAll(e.hazards.warnings());
            if (e.order != null) {
                logs.add(e.order.log());
            }
        }
        // Each worker reports a finding once per instruction; CTAs on several workers must not repeat it.
        Set<String> seen = new HashSet<>();
        reports.removeIf(d -> !seen.add(d.rule() + "@" + d.pos()));
        if (shadow != null && shadow.shadowFull()) {
            reports.add(Diagnostic.warning(kernel.pos(), "exec.hazards-limited", "the hazard detector's record of"
                    + " global memory reached the memory budget (--max-memory): accesses to global memory beyond it"
                    + " were not checked for races"));
        }
        if (!logs.isEmpty()) {
            reports.addAll(new HazardReports(program, launch, workers[0].order.slotsPerCluster(),
                    threadsPerCta, launch.limits().sync().warnOnly()).diagnostics(HazardLog.merged(logs)));
        }
        // Workers take CTAs as they come: order the warnings by place so the report is stable.
        reports.sort(Comparator.comparingInt((Diagnostic d) -> d.pos().line())
                .thenComparingInt(d -> d.pos().column()).thenComparing(Diagnostic::message));
        List<DeviceOutput> printed = DeviceLibrary.collect(Arrays.stream(workers).map(Engine::library).toList());
        if (stop != null) {
            reports.addAll(stop.diagnostics);
            return new ExecResult(stop.status, reports, total, printed);
        }
        return new ExecResult(ExecStatus.OK, reports, total, printed);
    }
}
