package io.ptxrun.exec;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs the case directories under src/test/resources/exec/run (kernel.ptx + launch.json +
 * expected.json recorded on hardware). The system property ptxrun.rundir points it elsewhere.
 */
class RunCasesTest {

    @TestFactory
    Stream<DynamicTest> cases() throws IOException {
        Path root = Path.of(System.getProperty("ptxrun.rundir", "src/test/resources/exec/run"));
        List<Path> dirs;
        try (Stream<Path> s = Files.list(root)) {
            dirs = s.filter(d -> Files.exists(d.resolve("launch.json"))).sorted().toList();
        }
        return dirs.stream().map(d -> DynamicTest.dynamicTest(d.getFileName().toString(), () -> {
            LaunchCase.Outcome o = LaunchCase.run(d);
            if (o.result() == null) {
                throw new AssertionError(o.mismatches().toString());
            }
            if (!Files.exists(d.resolve("expected.json"))) {
                assertEquals(ExecStatus.OK, o.result().status(), () -> o.result().diagnostics().toString());
            }
            assertTrue(o.mismatches().isEmpty(), () -> o.mismatches().toString());
        }));
    }
}
