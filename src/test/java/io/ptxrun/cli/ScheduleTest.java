package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.ast.Module;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultBuffer;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded random schedules and CTAs on several threads: a racy kernel's result depends on the
 * seed (and only on it); race-free kernels give the hardware's result under every seed and any
 * number of CTA threads.
 */
class ScheduleTest {
    /** Every thread of 4 warps increments one shared counter 8 times without atomics. */
    private static final String RACY = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry racy(.param .u64 out)
            {
                .shared .align 4 .u32 counter;
                .reg .pred %p, %first;
                .reg .b32 %t, %i, %v;
                .reg .b64 %o;
                mov.u32 %t, %tid.x;
                setp.eq.u32 %first, %t, 0;
                @%first st.shared.u32 [counter], 0;
                bar.sync 0;
                mov.u32 %i, 0;
            LOOP:
                ld.shared.u32 %v, [counter];
                add.u32 %v, %v, 1;
                st.shared.u32 [counter], %v;
                add.u32 %i, %i, 1;
                setp.lt.u32 %p, %i, 8;
                @%p bra LOOP;
                bar.sync 0;
                ld.shared.u32 %v, [counter];
                ld.param.u64 %o, [out];
                @%first st.global.u32 [%o], %v;
                ret;
            }
            """;

    private static final String LAUNCH = """
            {"grid": [1], "block": [128], "buffers": {"out": {"type": "u32", "count": 1, "init": 0}},
             "params": ["out"], "dump": ["out"]}
            """;

    private static long racyCounter(OptionalLong seed) throws Exception {
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule("racy.ptx", RACY);
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        Path launchFile = java.nio.file.Files.createTempFile("racy", ".json");
        try {
            java.nio.file.Files.writeString(launchFile, LAUNCH);
            RunResult r = KernelRunner.run(parsed.value(), LaunchFile.read(launchFile),
                    new KernelLaunch.Limits(10_000_000, seed));
            return r.buffers().get("out").bits(0);
        } finally {
            java.nio.file.Files.delete(launchFile);
        }
    }

    @Test
    void racyKernelDependsOnTheSeedOnly() throws Exception {
        // The default schedule runs each warp's load-add-store together: 4 warps x 8 rounds.
        assertEquals(32, racyCounter(OptionalLong.empty()));
        Set<Long> seen = new HashSet<>();
        for (long seed = 1; seed <= 12; seed++) {
            long first = racyCounter(OptionalLong.of(seed));
            assertEquals(first, racyCounter(OptionalLong.of(seed)), "seed " + seed + " twice");
            seen.add(first);
        }
        assertTrue(seen.size() > 1, "every seed gave " + seen);
    }

    private static Map<String, List<Long>> buffers(RunResult r) {
        Map<String, List<Long>> out = new TreeMap<>();
        for (Map.Entry<String, ResultBuffer> e : r.buffers().entrySet()) {
            ResultBuffer b = e.getValue();
            List<Long> bits = new java.util.ArrayList<>();
            for (int i = 0; i < b.count(); i++) {
                bits.add(b.bits(i));
            }
            out.put(e.getKey(), bits);
        }
        return out;
    }

    private static RunResult run(String name, KernelLaunch.Limits limits) throws Exception {
        Path dir = TestData.ROOT.resolve("run").resolve(name);
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(name, TestData.read(dir.resolve("kernel.ptx")));
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        return KernelRunner.run(parsed.value(), LaunchFile.read(dir.resolve("launch.json")), limits);
    }

    @ParameterizedTest
    @ValueSource(strings = {"nvcc-matmul-tiled", "core-branch-diverge", "nvcc-cub-block-reduce", "core-shfl",
            "nvcc-atomic-histogram", "nvcc-cub-block-scan"})
    void raceFreeKernelsGiveOneResultForEverySeedAndThreadCount(String name) throws Exception {
        Map<String, List<Long>> expected = buffers(RunCasesTest.run(TestData.ROOT.resolve("run").resolve(name)));
        for (long seed : new long[] {1, 2, 3, 42}) {
            KernelLaunch.Limits limits = new KernelLaunch.Limits(200_000_000L, OptionalLong.of(seed), 3);
            assertEquals(expected, buffers(run(name, limits)), name + " with seed " + seed);
        }
        assertEquals(expected, buffers(run(name, new KernelLaunch.Limits(200_000_000L, OptionalLong.empty(), 1))),
                name + " on one thread");
    }
}
