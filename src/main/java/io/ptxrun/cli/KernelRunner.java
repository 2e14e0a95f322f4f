package io.ptxrun.cli;

import io.ptxrun.ast.Function;
import io.ptxrun.ast.Module;
import io.ptxrun.diag.CudaLocation;
import io.ptxrun.diag.Diagnostic;
import io.ptxrun.diag.SourceMap;
import io.ptxrun.exec.ExecResult;
import io.ptxrun.exec.GlobalMemory;
import io.ptxrun.exec.Interpreter;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.ParamLayout;
import io.ptxrun.launch.BufferSpec;
import io.ptxrun.launch.Dim3;
import io.ptxrun.launch.LaunchException;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ParamValue;
import io.ptxrun.launch.ResultBuffer;
import io.ptxrun.launch.ResultDiagnostic;
import io.ptxrun.launch.RunResult;
import io.ptxrun.launch.RunStatus;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One kernel launch as the launch-file contract describes it: allocates and fills the buffers,
 * lays out the parameters, runs the engine and collects the dumped buffers into the result.
 * Mismatches between the launch file and the kernel's signature are input errors.
 */
public final class KernelRunner {
    private KernelRunner() {}

    /** Thrown for a launch that does not fit the module (missing kernel, wrong parameters). */
    public static final class LaunchMismatch extends Exception {
        public LaunchMismatch(String message) {
            super(message, null, false, false);
        }
    }

    /**
     * The launch file's cluster shape, else the kernel's {@code .reqnctapercluster} (the hardware
     * runs such a kernel in clusters even without a cluster launch attribute), else one CTA.
     */
    static Dim3 clusterShape(Function kernel, LaunchFile launch) throws LaunchMismatch {
        if (launch.cluster().isPresent()) {
            return launch.cluster().get();
        }
        Optional<io.ptxrun.ast.FunctionDirective> required =
                kernel.directive(io.ptxrun.ast.FunctionDirective.Kind.REQNCTAPERCLUSTER);
        if (required.isEmpty()) {
            return Dim3.ONE;
        }
        List<Long> v = required.get().values();
        Dim3 shape = new Dim3(v.get(0).intValue(), v.size() > 1 ? v.get(1).intValue() : 1,
                v.size() > 2 ? v.get(2).intValue() : 1);
        Dim3 grid = launch.grid();
        if (grid.x() % shape.x() != 0 || grid.y() % shape.y() != 0 || grid.z() % shape.z() != 0) {
            throw new LaunchMismatch("grid " + grid + " is not a whole number of the clusters " + shape
                    + " that kernel '" + kernel.name() + "' requires (.reqnctapercluster)");
        }
        return shape;
    }

    public static RunResult run(Module module, LaunchFile launch, KernelLaunch.Limits limits) throws LaunchMismatch {
        Function kernel = kernel(module, launch);
        GlobalMemory memory = new GlobalMemory(limits.maxMemoryBytes());
        long bufferBytes = 0;
        for (BufferSpec spec : launch.buffers().values()) {
            bufferBytes += Math.max(1, spec.byteSize());
        }
        if (bufferBytes > memory.budget()) {
            // Refused before any allocation: the buffers alone do not fit.
            return new RunResult(Optional.of(kernel.name()), RunStatus.ERROR, Map.of(), List.of(ResultDiagnostic.at(
                    io.ptxrun.diag.Severity.ERROR, "the buffers need " + bufferBytes + " bytes, more than the"
                            + " simulated-memory budget of " + memory.budget() + " bytes (--max-memory)",
                    kernel.pos().file(), kernel.pos().line(), kernel.pos().column())), stats(launch, 0, 0));
        }
        Map<String, Long> addresses = new HashMap<>();
        for (Map.Entry<String, BufferSpec> b : launch.buffers().entrySet()) {
            BufferSpec spec = b.getValue();
            long addr = memory.allocate(Math.max(1, spec.byteSize()), 256);
            memory.write(addr, spec.initialContents());
            memory.name(addr, b.getKey());
            if (spec.uninitialized()) {
                memory.markUninitialized(addr, spec.byteSize());
            }
            addresses.put(b.getKey(), addr);
        }
        byte[] params = paramBlock(kernel, launch, addresses);
        Dim3 cluster = clusterShape(kernel, launch);
        long started = System.nanoTime();
        ExecResult exec = Interpreter.run(new KernelLaunch(module, kernel.name(), ints(launch.grid()),
                ints(launch.block()), ints(cluster), launch.sharedBytes(), params, memory, limits));
        long millis = (System.nanoTime() - started) / 1_000_000;

        Map<String, ResultBuffer> dumped = new LinkedHashMap<>();
        for (String name : launch.dump()) {
            BufferSpec spec = launch.buffers().get(name);
            dumped.put(name, new ResultBuffer(spec.type(), memory.read(addresses.get(name), spec.byteSize())));
        }
        List<ResultDiagnostic> diagnostics = new ArrayList<>();
        int hazards = 0;
        SourceMap lines = exec.diagnostics().isEmpty() ? null : SourceMap.of(module);
        for (Diagnostic d : exec.diagnostics()) {
            ResultDiagnostic r = ResultDiagnostic.at(d.severity(), d.message(), d.pos().file(), d.pos().line(),
                    d.pos().column()).withRule(d.rule());
            Optional<CudaLocation> source = lines.locate(d.pos());
            diagnostics.add(source.isPresent() ? r.withSource(source.get()) : r);
            if (isHazard(d.rule())) {
                hazards++;
            }
        }
        Map<String, Object> stats = stats(launch, exec.instructionsExecuted(), millis);
        if (limits.sync().detectHazards()) {
            stats.put("hazards", hazards);
        }
        return new RunResult(Optional.of(kernel.name()), RunStatus.valueOf(exec.status().name()), dumped,
                diagnostics, stats, exec.printed());
    }

    /** The rules of the hazard detector (races, async-proxy ordering, divergence, uninitialized reads). */
    public static boolean isHazard(String rule) {
        return rule != null && (rule.startsWith("race.") || rule.startsWith("async.") || rule.startsWith("divergence.")
                || rule.startsWith("uninit."));
    }

    private static Map<String, Object> stats(LaunchFile launch, long instructions, long millis) {
        Map<String, Object> stats = new LinkedHashMap<>();
        // At most (2^31-1) * 65535^2 CTAs of 1024 threads: beyond a long, so the product saturates.
        long ctas = launch.grid().count();
        long perCta = launch.block().count();
        stats.put("threads", ctas > Long.MAX_VALUE / perCta ? Long.MAX_VALUE : ctas * perCta);
        stats.put("instructions", instructions);
        stats.put("wallMillis", millis);
        return stats;
    }

    private static Function kernel(Module module, LaunchFile launch) throws LaunchMismatch {
        List<Function> entries = module.entries();
        if (launch.kernel().isPresent()) {
            String name = launch.kernel().get();
            return entries.stream().filter(f -> f.name().equals(name)).findFirst().orElseThrow(() ->
                    new LaunchMismatch("kernel '" + name + "' is not an .entry of the module; entries: "
                            + names(entries)));
        }
        if (entries.size() != 1) {
            throw new LaunchMismatch(entries.isEmpty() ? "the module has no .entry to launch"
                    : "the module has " + entries.size() + " entries (" + names(entries)
                    + "): name one with \"kernel\" or --kernel");
        }
        return entries.get(0);
    }

    private static String names(List<Function> entries) {
        return String.join(", ", entries.stream().map(Function::name).toList());
    }

    private static byte[] paramBlock(Function kernel, LaunchFile launch, Map<String, Long> addresses)
            throws LaunchMismatch {
        ParamLayout layout;
        try {
            layout = ParamLayout.of(kernel);
        } catch (ParamLayout.TooLarge e) {
            throw new LaunchMismatch("kernel '" + kernel.name() + "': " + e.getMessage());
        }
        List<ParamValue> values = launch.params();
        if (values.size() != layout.slots().size()) {
            throw new LaunchMismatch("kernel '" + kernel.name() + "' takes " + layout.slots().size()
                    + " parameters but the launch passes " + values.size());
        }
        byte[] block = new byte[layout.totalBytes()];
        for (int i = 0; i < values.size(); i++) {
            ParamLayout.Slot slot = layout.slots().get(i);
            ParamValue value = values.get(i);
            byte[] bytes = paramBytes(value, launch, addresses);
            String kindMismatch = kindMismatch(slot, value);
            if (kindMismatch != null) {
                throw new LaunchMismatch("params[" + i + "]: kernel parameter '" + slot.name() + "' is "
                        + slot.param().type().spelling + " but the launch passes " + value + " (" + kindMismatch + ")");
            }
            if (bytes.length != slot.size()) {
                throw new LaunchMismatch("params[" + i + "]: kernel parameter '" + slot.name() + "' is "
                        + slot.size() + " bytes (" + slot.param().type().spelling
                        + (slot.param().dims().isEmpty() ? "" : slot.param().dims()) + ") but the launch passes "
                        + value + " (" + bytes.length + " bytes)");
            }
            System.arraycopy(bytes, 0, block, slot.offset(), bytes.length);
        }
        return block;
    }

    /** The bytes of one argument as they sit in parameter space. */
    private static byte[] paramBytes(ParamValue value, LaunchFile launch, Map<String, Long> addresses) {
        if (value instanceof ParamValue.BufferAddress b) {
            return littleEndian(addresses.get(b.name()), 8);
        } else if (value instanceof ParamValue.Scalar s) {
            return s.littleEndianBytes();
        } else if (value instanceof ParamValue.TensorMapParam t) {
            String buffer = launch.tensorMaps().get(t.name()).buffer();
            return launch.tensorMaps().get(t.name()).encode(addresses.get(buffer));
        } else if (value instanceof ParamValue.Struct struct) {
            byte[] bytes = new byte[struct.byteSize()];
            int[] offsets = struct.offsets();
            for (int i = 0; i < offsets.length; i++) {
                byte[] member = paramBytes(struct.members().get(i), launch, addresses);
                System.arraycopy(member, 0, bytes, offsets[i], member.length);
            }
            return bytes;
        }
        return new byte[value.byteSize()];
    }

    /**
     * Why a value cannot be passed to a parameter of that type although the sizes may match, or
     * null: a float to an integer parameter or the reverse, a buffer address to a float (bit-size
     * .b parameters take anything of their size, as ptxas lets them).
     */
    private static String kindMismatch(ParamLayout.Slot slot, ParamValue value) {
        io.ptxrun.ast.DataType type = slot.param().type();
        if (!slot.param().dims().isEmpty() || !(type.isFloat() || type.isInteger())) {
            return null;
        }
        if (value instanceof ParamValue.BufferAddress) {
            return type.isFloat() ? "a buffer's address is an integer" : null;
        }
        if (value instanceof ParamValue.Scalar s) {
            if (s.type().isFloat() && !type.isFloat()) {
                return "a float for an integer parameter";
            }
            if (!s.type().isFloat() && type.isFloat()) {
                return "an integer for a float parameter";
            }
        }
        return null;
    }

    private static byte[] littleEndian(long v, int n) {
        byte[] b = new byte[n];
        for (int i = 0; i < n; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    private static int[] ints(Dim3 d) {
        return new int[] {d.x(), d.y(), d.z()};
    }

    static LaunchMismatch mismatch(LaunchException e) {
        return new LaunchMismatch(e.getMessage());
    }
}
