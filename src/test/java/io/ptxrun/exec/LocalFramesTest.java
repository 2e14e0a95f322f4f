package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A function's .local frame starts undefined at each call, whatever an earlier call whose frame
 * took the same bytes left there: reading a local it did not write in this call is an
 * uninitialized read (the hazard detector's uninit.local), found on the later call too.
 */
class LocalFramesTest {
    private static final String PTX = Harness.HEADER + """
            .func fill()
            {
                .local .align 16 .b8 scratch[64];
                .reg .u32 %k;
                mov.u32 %k, 7;
                st.local.v4.u32 [scratch], {%k, %k, %k, %k};
                st.local.v4.u32 [scratch+16], {%k, %k, %k, %k};
                st.local.v4.u32 [scratch+32], {%k, %k, %k, %k};
                st.local.v4.u32 [scratch+48], {%k, %k, %k, %k};
                ret;
            }
            .func (.param .b32 result) stale(.param .b32 write)
            {
                .local .align 4 .b32 acc;
                .reg .u32 %v, %w;
                .reg .pred %p;
                ld.param.u32 %w, [write];
                setp.ne.u32 %p, %w, 0;
                @%p st.local.u32 [acc], 1;
                ld.local.u32 %v, [acc];
                st.param.b32 [result], %v;
                ret;
            }
            .visible .entry k(.param .u64 out, .param .u32 write)
            {
                .reg .u32 %v, %w;
                .reg .u64 %o;
                ld.param.u64 %o, [out];
                ld.param.u32 %w, [write];
                call.uni fill, ();
                {
                    .param .b32 arg;
                    .param .b32 ret;
                    st.param.b32 [arg], %w;
                    call.uni (ret), stale, (arg);
                    ld.param.b32 %v, [ret];
                }
                st.global.u32 [%o], %v;
                ret;
            }""";

    private static List<String> uninitialized(int write) {
        Harness h = new Harness(PTX);
        long out = h.buffer(4);
        ExecResult r = h.run(1, 1, out, write);
        assertEquals(ExecStatus.OK, r.status(), () -> r.diagnostics().toString());
        return r.diagnostics().stream().map(d -> d.rule()).filter(s -> s.startsWith("uninit")).toList();
    }

    @Test
    void aLocalLeftByAnEarlierCallIsStillUninitialized() {
        assertEquals(List.of("uninit.local"), uninitialized(0));
    }

    @Test
    void aLocalWrittenInThisCallIsNot() {
        assertEquals(List.of(), uninitialized(1));
    }
}
