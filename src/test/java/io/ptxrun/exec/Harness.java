package io.ptxrun.exec;

import io.ptxrun.ast.Function;
import io.ptxrun.ast.Module;
import io.ptxrun.syntax.PtxParser;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** Parses inline PTX, allocates buffers, fills the .param block and runs the only kernel. */
final class Harness {
    final Module module;
    final GlobalMemory memory = new GlobalMemory();
    long maxInstructions = 1_000_000_000L;
    long sharedBytes;
    SyncOptions sync = SyncOptions.DEFAULT;
    java.util.OptionalLong scheduleSeed = java.util.OptionalLong.empty();
    int ctaThreads;
    /** CTAs per cluster; null for clusters of one. */
    int[] cluster;
    /** The launch's progress, or null for a fresh one. */
    Progress progress;

    Harness(String ptx) {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("test.ptx", ptx);
        assertTrue(parsed.ok(), () -> "parse errors: " + parsed.diagnostics());
        module = parsed.value();
    }

    static String resource(String name) {
        try (var in = Harness.class.getResourceAsStream("/exec/" + name)) {
            return new String(in.readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    long buffer(int bytes) {
        return memory.allocate(bytes, 256);
    }

    long ints(int... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int v : values) {
            b.putInt(v);
        }
        long a = buffer(values.length * 4);
        memory.write(a, b.array());
        return a;
    }

    long floats(float... values) {
        ByteBuffer b = ByteBuffer.allocate(values.length * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (float v : values) {
            b.putFloat(v);
        }
        long a = buffer(values.length * 4);
        memory.write(a, b.array());
        return a;
    }

    int[] readInts(long addr, int n) {
        ByteBuffer b = ByteBuffer.wrap(memory.read(addr, n * 4)).order(ByteOrder.LITTLE_ENDIAN);
        int[] out = new int[n];
        for (int i = 0; i < n; i++) {
            out[i] = b.getInt();
        }
        return out;
    }

    float[] readFloats(long addr, int n) {
        ByteBuffer b = ByteBuffer.wrap(memory.read(addr, n * 4)).order(ByteOrder.LITTLE_ENDIAN);
        float[] out = new float[n];
        for (int i = 0; i < n; i++) {
            out[i] = b.getFloat();
        }
        return out;
    }

    long[] readLongs(long addr, int n) {
        ByteBuffer b = ByteBuffer.wrap(memory.read(addr, n * 8)).order(ByteOrder.LITTLE_ENDIAN);
        long[] out = new long[n];
        for (int i = 0; i < n; i++) {
            out[i] = b.getLong();
        }
        return out;
    }

    /** Params are Longs (pointers, 64-bit), Integers (32-bit) or Floats, in declaration order. */
    ExecResult run(int grid, int block, Object... params) {
        return run(new int[] {grid, 1, 1}, new int[] {block, 1, 1}, params);
    }

    ExecResult run(int[] grid, int[] block, Object... params) {
        List<Function> entries = module.entries();
        Function kernel = entries.get(entries.size() - 1);
        ParamLayout layout = ParamLayout.of(kernel);
        ByteBuffer pb = ByteBuffer.allocate(layout.totalBytes()).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < params.length; i++) {
            int off = layout.slots().get(i).offset();
            Object p = params[i];
            if (p instanceof Long l) {
                pb.putLong(off, l);
            } else if (p instanceof Integer v) {
                pb.putInt(off, v);
            } else if (p instanceof Float f) {
                pb.putFloat(off, f);
            }
        }
        KernelLaunch launch = new KernelLaunch(module, kernel.name(), grid, block, cluster, sharedBytes, pb.array(),
                memory, progress == null ? new KernelLaunch.Limits(maxInstructions, scheduleSeed, ctaThreads, sync)
                        : new KernelLaunch.Limits(maxInstructions, scheduleSeed, ctaThreads, sync).withProgress(progress));
        return Interpreter.run(launch);
    }

    static final String HEADER = ".version 8.0\n.target sm_90\n.address_size 64\n";
}
