package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.launch.DeviceOutput;
import io.ptxrun.launch.ResultDiagnostic;
import io.ptxrun.launch.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What kernels print, against what an H100 printed for them: expected-stdout.txt (device printf)
 * and expected-stderr.txt (the CUDA runtime's assertion messages) beside a run or bug case. The
 * GPU prints warps and CTAs in an order of its own, so lines are compared as sorted lists; lines
 * where ptxrun deliberately differs are listed with their reason in testdata/run/printf-differences.tsv.
 * When a run stops at an assertion, the GPU's other warps may print or assert first: then what
 * ptxrun prints must be a part of what the GPU printed, and its first assertion one of the GPU's.
 */
class DeviceOutputTest {
    static Stream<Path> cases() {
        return Stream.concat(TestData.files("run", "kernel.ptx").stream(), TestData.files("bugs", "kernel.ptx").stream())
                .map(Path::getParent)
                .filter(d -> Files.exists(d.resolve("expected-stdout.txt")) || Files.exists(d.resolve("expected-stderr.txt")));
    }

    private static List<String> lines(Path file) {
        return Files.exists(file) ? TestData.read(file).lines().sorted().toList() : List.of();
    }

    private static Map<String, String> differences(String name) {
        Map<String, String> m = new TreeMap<>();
        for (String line : TestData.read(TestData.ROOT.resolve("run/printf-differences.tsv")).split("\n")) {
            String[] f = line.split("\t");
            if (!line.startsWith("#") && f.length >= 3 && f[0].equals(name)) {
                m.put(f[1], f[2]);
            }
        }
        return m;
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void printsWhatTheGpuPrinted(Path dir) throws Exception {
        RunResult result = RunCasesTest.run(dir);
        List<String> gpuOut = new ArrayList<>(lines(dir.resolve("expected-stdout.txt")));
        Map<String, String> known = differences(dir.getFileName().toString());
        for (Map.Entry<String, String> d : known.entrySet()) {
            assertTrue(gpuOut.remove(d.getKey()), "listed difference not in the hardware output: " + d.getKey());
            gpuOut.add(d.getValue());
        }
        gpuOut.sort(null);
        List<String> out = result.printedText().lines().sorted().toList();
        List<String> asserts = result.diagnostics().stream().map(ResultDiagnostic::message)
                .filter(m -> m.contains("Assertion `")).toList();
        List<String> gpuErr = lines(dir.resolve("expected-stderr.txt"));
        if (gpuErr.isEmpty()) {
            assertEquals(gpuOut, out);
            assertEquals(List.of(), asserts);
            return;
        }
        assertFalse(asserts.isEmpty(), "no assertion reported: " + result.diagnostics());
        assertTrue(gpuErr.containsAll(asserts), () -> "assertions " + asserts + " not among the GPU's " + gpuErr);
        assertTrue(gpuOut.containsAll(out), () -> "printed lines not printed by the GPU: "
                + out.stream().filter(l -> !gpuOut.contains(l)).toList());
        if (gpuErr.size() == 1) {
            assertEquals(gpuOut, out, "a single failing thread: everything before it is printed");
        }
        for (DeviceOutput p : result.printed()) {
            assertFalse(p.text().isEmpty());
        }
    }
}
