package io.ptxrun.exec;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** A rough speed figure: run with -Dptxrun.perf=true. */
@EnabledIfSystemProperty(named = "ptxrun.perf", matches = "true")
class ThroughputTest {
    @Test
    void loopThroughput() {
        Harness h = new Harness(Harness.HEADER + """
                .visible .entry loop(.param .u64 out, .param .u32 n)
                {
                    .reg .pred %p;
                    .reg .b32 %t, %i, %s, %n;
                    .reg .b64 %o, %w;
                    ld.param.u32 %n, [n];
                    mov.u32 %t, %tid.x;
                    mov.u32 %s, 0;
                    mov.u32 %i, 0;
                LOOP:
                    mad.lo.u32 %s, %s, 3, %i;
                    xor.b32 %s, %s, %t;
                    add.u32 %i, %i, 1;
                    setp.lt.u32 %p, %i, %n;
                    @%p bra LOOP;
                    ld.param.u64 %o, [out];
                    mul.wide.u32 %w, %t, 4;
                    add.s64 %o, %o, %w;
                    st.global.u32 [%o], %s;
                    ret;
                }
                """);
        long out = h.buffer(256 * 4);
        for (int rep = 0; rep < 3; rep++) {
            long t0 = System.nanoTime();
            ExecResult r = h.run(4, 256, out, 20_000);
            long ns = System.nanoTime() - t0;
            assertEquals(ExecStatus.OK, r.status());
            System.out.printf("%d thread-instructions in %.1f ms: %.1f M thread-instr/s%n", r.instructionsExecuted(),
                    ns / 1e6, r.instructionsExecuted() / (ns / 1e3));
        }
    }
}
