package io.ptxrun.exec;

import io.ptxrun.diag.Diagnostic;
import io.ptxrun.launch.DeviceOutput;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The CUDA device-library functions that nvcc leaves as calls of {@code .extern .func}
 * declarations without a body: {@code vprintf} (device printf), {@code __assertfail} (a failed
 * {@code assert}), {@code malloc} and {@code free} (the device heap). Any other external function
 * cannot run and is refused when the module is decoded. ({@code __nanosleep} and the clock reads
 * are instructions, not calls: nanosleep and mov from %clock/%clock64/%globaltimer.)
 *
 * <p>One instance per engine; the heap is shared by the engines of a launch. printf output is
 * kept per call with the calling thread, and ordered as clusters in grid order, then as the
 * calls ran within the cluster, so the same launch always prints the same text.
 */
final class DeviceLibrary {
    static final int VPRINTF = 0, ASSERTFAIL = 1, MALLOC = 2, FREE = 3;
    private static final List<String> NAMES = List.of("vprintf", "__assertfail", "malloc", "free");
    /** cudaLimitMallocHeapSize's default: a malloc that would exceed it returns NULL. */
    static final long HEAP_BYTES = 8L << 20;
    /** Device strings are read up to this length (a format or message without its NUL is cut there). */
    private static final int MAX_STRING = 1 << 20;

    /** The device heap of one launch: live blocks and their sizes. */
    static final class Heap {
        final AtomicLong inUse = new AtomicLong();
        final Map<Long, Long> blocks = new ConcurrentHashMap<>();
    }

    /** Text kept per engine; beyond it printf output is dropped (the GPU's FIFO has a size limit too). */
    private static final long MAX_OUTPUT_CHARS = 16L << 20;

    private record Call(int cluster, long sequence, DeviceOutput output) {}

    private final Engine engine;
    private final Heap heap;
    private final List<Call> printed = new ArrayList<>();
    private long sequence;
    private long outputChars;

    DeviceLibrary(Engine engine, Heap heap) {
        this.engine = engine;
        this.heap = heap;
    }

    Heap heap() {
        return heap;
    }

    /** The library function of that name, or -1. */
    static int lookup(String name) {
        return NAMES.indexOf(name);
    }

    static List<String> names() {
        return NAMES;
    }

    /** Runs a library call for every lane of {@code exec}, in lane order (the pc has advanced). */
    void call(Warp w, Op op, int pc, int exec) {
        int function = ((CallForm) op.form).callee();
        if (function == ASSERTFAIL) {
            assertFail(w, op, exec);
            return;
        }
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            switch (function) {
                case VPRINTF -> result(w, op, l, 4, printf(w, op, l), engine.order != null);
                case MALLOC -> result(w, op, l, 8, malloc(arg(w, op, l, 0, 8)), engine.order != null);
                default -> free(w, op, l, arg(w, op, l, 0, 8));
            }
        }
    }

    private int printf(Warp w, Op op, int l) {
        long fmt = arg(w, op, l, 0, 8);
        if (fmt == 0) {
            return -1;
        }
        long buffer = arg(w, op, l, 1, 8);
        String format = string(w, l, fmt);
        PrintfFormat.Result r = PrintfFormat.format(format, new PrintfFormat.Arguments() {
            @Override
            public long read(long offset, int size) {
                return engine.memory.load(w, Space.GENERIC, buffer + offset, size, l);
            }

            @Override
            public String string(long address) {
                return DeviceLibrary.this.string(w, l, address);
            }
        });
        int[] cta = engine.cta().ctaid;
        outputChars += r.text().length();
        if (outputChars > MAX_OUTPUT_CHARS) {
            return r.arguments();
        }
        printed.add(new Call(clusterIndex(cta), sequence++,
                new DeviceOutput(cta, new int[] {w.tidX[l], w.tidY[l], w.tidZ[l]}, r.text())));
        return r.arguments();
    }

    /**
     * {@code __assertfail(message, file, line, function, charSize)}: each failing lane prints what
     * the CUDA runtime prints for it, and the launch stops as after {@code trap}.
     */
    private void assertFail(Warp w, Op op, int exec) {
        List<Diagnostic> ds = new ArrayList<>();
        int[] cta = engine.cta().ctaid;
        for (int m = exec; m != 0; m &= m - 1) {
            int l = Integer.numberOfTrailingZeros(m);
            String message = string(w, l, arg(w, op, l, 0, 8));
            String file = string(w, l, arg(w, op, l, 1, 8));
            long line = arg(w, op, l, 2, 4);
            String function = string(w, l, arg(w, op, l, 3, 8));
            ds.add(Diagnostic.error(op.pos, "exec.assert", String.format(
                    "%s:%d: %s: block: [%d,%d,%d], thread: [%d,%d,%d] Assertion `%s` failed.", file, line, function,
                    cta[0], cta[1], cta[2], w.tidX[l], w.tidY[l], w.tidZ[l], message)));
        }
        if (!ds.isEmpty()) {
            throw new Engine.Stop(ExecStatus.TRAP, ds);
        }
    }

    /** Device malloc: 16-byte aligned global memory, NULL for 0 bytes or beyond the heap size. */
    private long malloc(long bytes) {
        if (bytes <= 0 || bytes > HEAP_BYTES) {
            return 0;
        }
        long rounded = (bytes + 15) & -16L;
        if (heap.inUse.addAndGet(rounded) > HEAP_BYTES) {
            heap.inUse.addAndGet(-rounded);
            return 0;
        }
        long a = engine.global().allocate(rounded, 16);
        heap.blocks.put(a, rounded);
        return a;
    }

    private void free(Warp w, Op op, int l, long address) {
        if (address == 0) {
            return;
        }
        Long size = heap.blocks.remove(address);
        if (size == null) {
            throw new Engine.Stop(ExecStatus.ERROR, List.of(Diagnostic.error(op.pos, "exec.free", String.format(
                    "free(0x%x): not a block that device malloc returned, or freed already (%s)",
                    address, engine.where(w, l)))));
        }
        heap.inUse.addAndGet(-size);
    }

    /** The NUL-terminated string at a generic address (UTF-8; cut at {@link #MAX_STRING} bytes). */
    private String string(Warp w, int l, long address) {
        byte[] b = new byte[64];
        int n = 0;
        while (n < MAX_STRING) {
            byte c = (byte) engine.memory.load(w, Space.GENERIC, address + n, 1, l);
            if (c == 0) {
                break;
            }
            if (n == b.length) {
                b = java.util.Arrays.copyOf(b, n * 2);
            }
            b[n++] = c;
        }
        return new String(b, 0, n, StandardCharsets.UTF_8);
    }

    /** Argument k of the call, from the caller's .param frame. */
    private static long arg(Warp w, Op op, int l, int k, int size) {
        int at = ((CallForm) op.form).argOffset(k);
        if (at < 0) {
            return 0;
        }
        return Bytes.get(w.local[l], w.localBase[l] + at, size);
    }

    /** The call's result, stored (and, with the hazard detector on, marked written) in the caller's frame. */
    private static void result(Warp w, Op op, int l, int size, long v, boolean marked) {
        int[] results = ((CallForm) op.form).resultOffsets();
        if (results.length > 0) {
            int at = w.localBase[l] + results[0];
            Bytes.put(w.local[l], at, size, v);
            if (marked) {
                w.localWritten(l).set(at, at + size);
            }
        }
    }

    private int clusterIndex(int[] ctaid) {
        int[] g = engine.launchGrid();
        int[] cl = engine.launchCluster();
        int ncx = g[0] / cl[0], ncy = g[1] / cl[1];
        return ctaid[0] / cl[0] + ncx * (ctaid[1] / cl[1] + ncy * (ctaid[2] / cl[2]));
    }

    /** Everything the engines of one launch printed, in order. */
    static List<DeviceOutput> collect(List<DeviceLibrary> libraries) {
        List<Call> all = new ArrayList<>();
        for (DeviceLibrary d : libraries) {
            all.addAll(d.printed);
        }
        all.sort(Comparator.comparingInt(Call::cluster).thenComparingLong(Call::sequence));
        return all.stream().map(Call::output).toList();
    }
}
