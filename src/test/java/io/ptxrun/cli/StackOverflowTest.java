package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * Running out of Java stack ends in one line and exit code 4, never a stack trace: the command runs
 * on a thread whose stack is far too small for checking a real module.
 */
class StackOverflowTest {
    @Test
    void aStackOverflowIsOneLineAndExitCodeFour(@org.junit.jupiter.api.io.TempDir java.nio.file.Path dir)
            throws Exception {
        // An initializer nested as deeply as the parser allows (200 levels): fine on the normal stack.
        String nested = "(".repeat(190) + "1" + ")".repeat(190);
        java.nio.file.Path ptx = dir.resolve("deep.ptx");
        java.nio.file.Files.writeString(ptx, ".version 8.0\n.target sm_90\n.address_size 64\n.global .u32 x = "
                + nested + ";\n");
        assertEquals(ExitCode.OK, CliRun.run("check", ptx.toString()).code());
        AtomicReference<CliRun.Run> result = new AtomicReference<>();
        Thread t = new Thread(null, () -> result.set(CliRun.run("check", ptx.toString())), "small-stack", 96 * 1024);
        t.start();
        t.join();
        CliRun.Run r = result.get();
        assertEquals(ExitCode.OUT_OF_RESOURCES, r.code(), r.err());
        assertEquals("ptxrun: error: stack overflow: the input nests too deeply", r.err().strip());
    }
}
