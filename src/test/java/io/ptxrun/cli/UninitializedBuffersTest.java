package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.ast.Module;
import io.ptxrun.exec.KernelLaunch;
import io.ptxrun.launch.LaunchException;
import io.ptxrun.launch.LaunchFile;
import io.ptxrun.launch.RunResult;
import io.ptxrun.syntax.PtxParser;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/**
 * A launch buffer marked "uninitialized" stands for memory the program has not set: reads of it
 * before a write are uninit.global, whether plain loads or atomics' read-modify-writes.
 */
class UninitializedBuffersTest {
    /** Thread t adds 1 to counter[0] with an atomic, then writes out[t] and reads it back into out[t + 32]. */
    private static final String KERNEL = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry k(.param .u64 counter, .param .u64 out) {
                .reg .u64 %c, %o, %w; .reg .u32 %t, %v;
                ld.param.u64 %c, [counter];
                ld.param.u64 %o, [out];
                mov.u32 %t, %tid.x;
                atom.global.add.u32 %v, [%c], 1;
                mul.wide.u32 %w, %t, 4;
                add.u64 %o, %o, %w;
                st.global.u32 [%o], %t;
                ld.global.u32 %v, [%o];
                st.global.u32 [%o+128], %v;
                ret;
            }""";

    private static List<String> rules(String counterKeys, String outKeys) throws Exception {
        Module m = PtxParser.parseModule("k.ptx", KERNEL).value();
        LaunchFile launch = LaunchFile.parse("""
                {"grid": [1], "block": [32],
                 "buffers": {"counter": {"type": "u32", "count": 1, "init": 7 %s},
                             "out": {"type": "u32", "count": 64, "init": 5 %s}},
                 "params": ["counter", "out"]}""".formatted(counterKeys, outKeys));
        RunResult r = KernelRunner.run(m, launch, KernelLaunch.Limits.DEFAULT);
        return r.diagnostics().stream().map(d -> d.rule().orElse("") + " " + d.line()).toList();
    }

    @Test
    void readsBeforeAnyWriteOfAnUninitializedBufferAreReported() throws Exception {
        // The atomic on the counter reads it; out is written before it is read.
        assertEquals(List.of("uninit.global 9"), rules(", \"uninitialized\": true", ", \"uninitialized\": true"));
        assertEquals(List.of(), rules("", ", \"uninitialized\": true"));
        assertEquals(List.of(), rules(", \"uninitialized\": false", ""));
    }

    @Test
    void theKeyTakesABoolean() {
        Executable parse = () -> LaunchFile.parse("""
                {"grid": [1], "block": [32], "buffers": {"a": {"type": "u32", "count": 1, "uninitialized": 1}}}""");
        LaunchException e = org.junit.jupiter.api.Assertions.assertThrows(LaunchException.class, parse);
        assertTrue(e.getMessage().contains("uninitialized"), e.getMessage());
    }
}
