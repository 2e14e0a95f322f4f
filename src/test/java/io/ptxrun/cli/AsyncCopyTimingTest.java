package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.ast.Module;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultComparison;
import io.ptxrun.launch.ResultJson;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Correctly synchronized kernels give the hardware's results whenever their asynchronous copies
 * land: at issue, at the last legal moment, or at random points in between. (bulk-load-sizes is not
 * one: its thread 0 waits on parity 0 after completing phase 1 itself, which only works while the
 * phase-1 copies are still in flight; with eager copies it waits on phase 2 and deadlocks.)
 */
class AsyncCopyTimingTest {
    private static final List<String> CASES = List.of("sync-cpasync-double-buffer", "sync-cpasync-triple-buffer",
            "sync-cpasync-mbarrier", "sync-cpasync-wait-all", "sync-cpasync-zfill", "sync-cpasync-sizes",
            "sync-cg-memcpy-async", "sync-cuda-pipeline", "sync-cuda-barrier-memcpy-async", "bulk-store-group", "nvcc-pipeline-stages", "nvcc-ptx-bulk-mbarrier",
            "st-async-cluster");

    static Stream<Arguments> cases() {
        return CASES.stream().flatMap(c -> Stream.of("eager", "lazy", "random:1", "random:2", "random:3")
                .map(t -> Arguments.of(c, t)));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("cases")
    void matchesHardwareUnderEveryTiming(String name, String timing) throws Exception {
        Path dir = TestData.ROOT.resolve("run").resolve(name);
        if (!Files.exists(dir.resolve("expected.json"))) {
            return;
        }
        Path ptx = dir.resolve("kernel.ptx");
        PtxParser.Parsed<Module> parsed = PtxParser.parseModule(ptx.toString(), TestData.read(ptx));
        assertTrue(parsed.ok(), parsed.diagnostics()::toString);
        RunResult actual = KernelRunner.run(parsed.value(), LaunchFile.read(dir.resolve("launch.json")),
                new KernelLaunch.Limits(200_000_000L, OptionalLong.empty(), SyncOptions.parse(timing, false)));
        assertEquals(List.of(), ResultComparison.compare(ResultJson.read(dir.resolve("expected.json")), actual),
                name + " " + timing);
    }
}
