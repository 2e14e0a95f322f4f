package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.exec.Compilation;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.exec.SyncOptions;
import io.ptxrun.launch.LaunchFile;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Branching regions (if-then-else code run under lane masks) where they stop early: an
 * instruction budget that runs out at every point of the loop body, warp turns that end inside it
 * (3 warps of one CTA, the last one partial), and seeded random schedules, under which the
 * interpreter runs. The result files (buffers, diagnostics naming the thread and the instruction,
 * statistics) must be those of the interpreter, with every region compiled at once and when hot.
 */
class BranchingRegionTest {
    private static final Path KERNEL = TestData.ROOT.resolve("compiler/diamonds/kernel.ptx");
    /** Thread-instructions of the whole launch. */
    private static final long TOTAL = 106_859;

    static Stream<Long> budgets() {
        // Every budget in one iteration of warp 0 of the first CTA, then spread over the launch.
        return Stream.concat(LongStream.rangeClosed(1_500, 2_000).filter(b -> b % 7 == 0).boxed(),
                LongStream.rangeClosed(1, 40).map(k -> k * TOTAL / 41 + k).boxed());
    }

    @ParameterizedTest(name = "budget {0}")
    @MethodSource("budgets")
    void budgetRunsOutAsInterpreted(long budget) throws Exception {
        String interpreted = result(Compilation.NONE, budget, OptionalLong.empty());
        assertTrue(interpreted.contains("\"timeout\""), interpreted);
        assertEquals(interpreted, result(Compilation.ALL, budget, OptionalLong.empty()));
        assertEquals(interpreted, result(Compilation.HOT, budget, OptionalLong.empty()));
    }

    @Test
    void wholeLaunchAsInterpreted() throws Exception {
        String interpreted = result(Compilation.NONE, Long.MAX_VALUE, OptionalLong.empty());
        assertTrue(interpreted.contains("\"instructions\":" + TOTAL), interpreted);
        assertEquals(interpreted, result(Compilation.ALL, Long.MAX_VALUE, OptionalLong.empty()));
        assertEquals(interpreted, result(Compilation.HOT, Long.MAX_VALUE, OptionalLong.empty()));
    }

    @Test
    void randomSchedulesAsInterpreted() throws Exception {
        for (long seed = 1; seed <= 4; seed++) {
            for (long budget : new long[] {Long.MAX_VALUE, 25_013}) {
                String interpreted = result(Compilation.NONE, budget, OptionalLong.of(seed));
                assertEquals(interpreted, result(Compilation.ALL, budget, OptionalLong.of(seed)), "seed " + seed);
                assertEquals(interpreted, result(Compilation.HOT, budget, OptionalLong.of(seed)), "seed " + seed);
            }
        }
    }

    private static String result(Compilation compilation, long budget, OptionalLong seed) throws Exception {
        LaunchFile launch = LaunchFile.read(KERNEL.resolveSibling("launch.json"));
        KernelLaunch.Limits limits = new KernelLaunch.Limits(budget, seed, 1, SyncOptions.DEFAULT)
                .withCompilation(compilation);
        return CompiledRuns.result(KERNEL.toString(), TestData.read(KERNEL), launch, limits);
    }
}
