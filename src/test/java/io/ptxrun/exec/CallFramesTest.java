package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A call's .param frame holds what the caller stored for the arguments and what the callee
 * stored for the results, and nothing else: a parameter whose argument the caller never stored,
 * or a result the callee never stored, read on the other side, is an uninitialized read (the
 * hazard detector's uninit.param), like a .local the thread never wrote.
 */
class CallFramesTest {
    private static String ptx(String storeArg, String storeResult) {
        return Harness.HEADER + """
                .func (.param .b32 result) add(.param .b32 a, .param .b32 b)
                {
                    .reg .u32 %x, %y;
                    ld.param.u32 %x, [a];
                    ld.param.u32 %y, [b];
                    add.u32 %x, %x, %y;
                    STORE_RESULT
                    ret;
                }
                .visible .entry k(.param .u64 out)
                {
                    .reg .u32 %v, %w;
                    .reg .u64 %o;
                    ld.param.u64 %o, [out];
                    mov.u32 %w, %tid.x;
                    {
                        .param .b32 a;
                        .param .b32 b;
                        .param .b32 r;
                        st.param.b32 [a], %w;
                        STORE_ARG
                        call.uni (r), add, (a, b);
                        ld.param.b32 %v, [r];
                    }
                    st.global.u32 [%o], %v;
                    ret;
                }""".replace("STORE_ARG", storeArg).replace("STORE_RESULT", storeResult);
    }

    private static List<io.ptxrun.diag.Diagnostic> uninitialized(String storeArg, String storeResult) {
        Harness h = new Harness(ptx(storeArg, storeResult));
        long out = h.buffer(4);
        ExecResult r = h.run(1, 1, out);
        assertEquals(ExecStatus.OK, r.status(), () -> r.diagnostics().toString());
        return r.diagnostics().stream().filter(d -> d.rule().startsWith("uninit")).toList();
    }

    @Test
    void argumentsAndResultsStoredAreDefined() {
        assertEquals(List.of(), uninitialized("st.param.b32 [b], 5;", "st.param.b32 [result], %x;"));
    }

    @Test
    void anArgumentTheCallerNeverStoredIsReportedWhereTheCalleeReadsIt() {
        List<io.ptxrun.diag.Diagnostic> found = uninitialized("", "st.param.b32 [result], %x;");
        assertEquals(List.of("uninit.param"), found.stream().map(d -> d.rule()).toList());
        assertTrue(found.get(0).message().contains("ld.param.u32"), found.get(0).message());
    }

    @Test
    void aResultTheCalleeNeverStoredIsReportedWhereTheCallerReadsIt() {
        List<io.ptxrun.diag.Diagnostic> found = uninitialized("st.param.b32 [b], 5;", "");
        assertEquals(List.of("uninit.param"), found.stream().map(d -> d.rule()).toList());
        assertTrue(found.get(0).message().contains("ld.param.b32"), found.get(0).message());
    }
}
