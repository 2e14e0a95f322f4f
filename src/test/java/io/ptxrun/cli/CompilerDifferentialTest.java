package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.TestData;
import io.ptxrun.exec.Compilation;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.launch.LaunchFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The compiled tier against the interpreter: every run case (testdata/run, the nvcc corpus's
 * runnable kernels among them), every bug case (testdata/bugs) and both kernels of every hazard
 * case (testdata/hazards) run with every region compiled at its first entry and with none, and
 * the result files (status, buffers, printed output, diagnostics, statistics but the wall time)
 * must be identical. Also with the hazard detector off, since compiled code then takes other paths.
 * One CTA thread: CTAs of racy kernels on several threads meet in an order no run repeats.
 */
class CompilerDifferentialTest {
    private static final long BUDGET = 200_000_000L;

    static Stream<Path> kernels() {
        Stream<Path> cases = Stream.of("run", "bugs").flatMap(area -> TestData.files(area, "kernel.ptx").stream())
                .filter(p -> Files.exists(p.resolveSibling("launch.json")));
        Stream<Path> hazards = Stream.of("bug.ptx", "fixed.ptx").flatMap(f -> TestData.files("hazards", f).stream())
                .filter(p -> Files.exists(p.resolveSibling("launch.json")));
        return Stream.concat(cases, hazards).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("kernels")
    void compiledRunsAsInterpreted(Path ptx) throws Exception {
        for (boolean hazards : new boolean[] {true, false}) {
            String interpreted = result(ptx, Compilation.NONE, hazards);
            String compiled = result(ptx, Compilation.ALL, hazards);
            assertEquals(interpreted, compiled, ptx + (hazards ? "" : " (--no-hazards)"));
        }
    }

    private static String result(Path ptx, Compilation compilation, boolean hazards) throws Exception {
        LaunchFile launch = LaunchFile.read(ptx.resolveSibling("launch.json"));
        KernelLaunch.Limits base = KernelLaunch.Limits.ofMaxInstructions(BUDGET);
        KernelLaunch.Limits limits = new KernelLaunch.Limits(base.maxInstructions(), base.scheduleSeed(),
                1, base.sync().withHazards(hazards)).withCompilation(compilation);
        return CompiledRuns.result(ptx.toString(), TestData.read(ptx), launch, limits);
    }
}
