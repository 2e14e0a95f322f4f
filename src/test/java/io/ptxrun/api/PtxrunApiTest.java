package io.ptxrun.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.Ptxrun;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.ResultBuffer;
import io.ptxrun.launch.RunResult;
import io.ptxrun.launch.RunStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The library API as a project would use it from a JUnit test: a kernel of its own, a launch
 * built in code, assertions on the buffers, printf output and diagnostics.
 */
class PtxrunApiTest {
    /** out[i] = in[i] * k, one thread per element; thread 0 prints n. */
    private static final String SCALE = """
            .version 8.0
            .target sm_80
            .address_size 64
            .extern .func (.param .b32 r) vprintf (.param .b64 fmt, .param .b64 args);
            .global .align 1 .b8 fmt[7] = {110, 61, 37, 100, 10, 0};
            .visible .entry scale(.param .u64 in, .param .u64 out, .param .u32 k, .param .u32 n)
            {
                .reg .pred %p<2>;
                .reg .b32 %r<8>;
                .reg .b64 %rd<8>;
                .local .align 4 .b8 buf[4];
                ld.param.u64 %rd1, [in];
                ld.param.u64 %rd2, [out];
                ld.param.u32 %r1, [k];
                ld.param.u32 %r2, [n];
                mov.u32 %r3, %tid.x;
                setp.ne.u32 %p1, %r3, 0;
                @%p1 bra SKIP;
                st.local.u32 [buf], %r2;
                mov.u64 %rd5, fmt;
                cvta.global.u64 %rd5, %rd5;
                mov.u64 %rd6, buf;
                cvta.local.u64 %rd6, %rd6;
                {
                .param .b64 p0;
                .param .b64 p1;
                .param .b32 r0;
                st.param.b64 [p0], %rd5;
                st.param.b64 [p1], %rd6;
                call.uni (r0), vprintf, (p0, p1);
                }
            SKIP:
                mul.wide.u32 %rd3, %r3, 4;
                add.u64 %rd4, %rd1, %rd3;
                ld.global.u32 %r4, [%rd4];
                mul.lo.u32 %r5, %r4, %r1;
                add.u64 %rd4, %rd2, %rd3;
                st.global.u32 [%rd4], %r5;
                ret;
            }
            """;

    @Test
    void runsAKernelWithALaunchBuiltInCode() throws Exception {
        assertEquals(java.util.List.of(), Ptxrun.check("scale.ptx", SCALE));
        LaunchFile launch = Ptxrun.launch("scale", "1", "8", "in=u32[8]:iota", "out=u32[8]:0", "u32:3", "u32:8");
        RunResult result = Ptxrun.run("scale.ptx", SCALE, launch);
        assertEquals(RunStatus.OK, result.status(), result.diagnostics()::toString);
        ResultBuffer out = result.buffers().get("out");
        for (int i = 0; i < 8; i++) {
            assertEquals(3L * i, out.bits(i));
        }
        assertEquals("n=8\n", result.printedText());
    }

    @Test
    void aLaunchFileAndAKernelThatTraps() throws Exception {
        Path dir = Path.of("testdata/bugs/nvcc-assert");
        RunResult result = Ptxrun.run("kernel.ptx", Files.readString(dir.resolve("kernel.ptx")),
                Ptxrun.launch(Files.readString(dir.resolve("launch.json"))));
        assertEquals(RunStatus.TRAP, result.status());
        assertTrue(result.diagnostics().get(0).message().endsWith("Assertion `in[i] >= 0` failed."));
        assertEquals(10, result.diagnostics().get(0).source().orElseThrow().line());
    }

    @Test
    void invalidInputCarriesItsDiagnostics() {
        Ptxrun.InvalidInput e = assertThrows(Ptxrun.InvalidInput.class, () -> Ptxrun.run("bad.ptx",
                SCALE.replace("mul.lo.u32 %r5", "mul.lo.u32 %r9"), Ptxrun.launch("scale", "1", "8",
                        "in=u32[8]:iota", "out=u32[8]:0", "u32:3", "u32:8")));
        assertTrue(e.diagnostics().get(0).message().contains("'%r9' is not declared"), e.diagnostics()::toString);
        assertThrows(Ptxrun.InvalidInput.class, () -> Ptxrun.run("scale.ptx", SCALE,
                Ptxrun.launch("scale", "1", "8", "in=u32[8]:iota", "out=u32[8]:0", "f32:3", "u32:8")));
    }
}
