package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.diag.Diagnostic;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Scopes in the hazard detector (memory consistency model: scope, morally strong, data race):
 * strong operations whose scopes do not include each other's threads race, and a release or a
 * fence at a scope orders nothing for threads outside it.
 */
class ScopesTest {
    /** Every thread of two CTAs adds 1 to one global word, at the scope given. */
    private static final String ADD = Harness.HEADER + """
            .visible .entry k(.param .u64 out) {
                .reg .u64 %o; .reg .u32 %v;
                ld.param.u64 %o, [out];
                atom.relaxed.SCOPE.global.add.u32 %v, [%o], 1;
                ret;
            }""";

    /**
     * Thread 0 of CTA 0 writes data, then publishes a flag with a release at RELEASE (a fence at
     * FENCE, then a relaxed store, when RELEASE is "relaxed"); thread 0 of CTA 1 spins on the flag
     * with an acquire at ACQUIRE and reads the data.
     */
    private static final String PUBLISH = Harness.HEADER + """
            .visible .entry k(.param .u64 out) {
                .reg .u64 %o, %f; .reg .u32 %c, %t, %v; .reg .pred %p, %q;
                ld.param.u64 %o, [out];
                add.u64 %f, %o, 64;
                mov.u32 %c, %ctaid.x;
                mov.u32 %t, %tid.x;
                setp.ne.u32 %p, %t, 0;
                @%p bra DONE;
                setp.ne.u32 %p, %c, 0;
                @%p bra READER;
                st.global.u32 [%o], 42;
                PUBLISH_FLAG
                bra DONE;
            READER:
                ld.ACQUIRE.global.u32 %v, [%f];
                setp.eq.u32 %q, %v, 0;
                @%q bra READER;
                ld.global.u32 %v, [%o];
                st.global.u32 [%o+4], %v;
            DONE:
                ret;
            }""";

    private static List<String> races(String ptx, int[] cluster) {
        Harness h = new Harness(ptx);
        h.cluster = cluster;
        long out = h.buffer(128);
        ExecResult r = h.run(2, 32, out);
        assertEquals(ExecStatus.OK, r.status(), r.diagnostics().toString());
        return r.diagnostics().stream().filter(d -> d.rule() != null && d.rule().startsWith("race.")).map(Diagnostic::message).toList();
    }

    @Test
    void atomicsAtCtaScopeFromTwoCtasRace() {
        List<String> found = races(ADD.replace("SCOPE", "cta"), null);
        assertEquals(1, found.size(), found.toString());
        assertTrue(found.get(0).contains("not morally strong") && found.get(0).contains(".cta"), found.get(0));
        assertEquals(List.of(), races(ADD.replace("SCOPE", "gpu"), null));
        assertEquals(List.of(), races(ADD.replace("SCOPE", "sys"), null));
    }

    @Test
    void atomicsAtClusterScopeReachTheClusterOnly() {
        assertEquals(List.of(), races(ADD.replace("SCOPE", "cluster"), new int[] {2, 1, 1}));
        assertEquals(1, races(ADD.replace("SCOPE", "cluster"), null).size());
        assertEquals(1, races(ADD.replace("SCOPE", "cta"), new int[] {2, 1, 1}).size());
    }

    @Test
    void aReleaseOrdersOnlyForThreadsInItsScope() {
        String gpu = PUBLISH.replace("PUBLISH_FLAG", "st.release.gpu.global.u32 [%f], 1;").replace("ACQUIRE", "acquire.gpu");
        assertEquals(List.of(), races(gpu, null));
        String cta = PUBLISH.replace("PUBLISH_FLAG", "st.release.cta.global.u32 [%f], 1;").replace("ACQUIRE", "acquire.gpu");
        List<String> found = races(cta, null);
        assertTrue(found.stream().anyMatch(m -> m.contains("RAW") && m.contains("'st.global.u32'")), found.toString());
        String cluster = PUBLISH.replace("PUBLISH_FLAG", "st.release.cluster.global.u32 [%f], 1;")
                .replace("ACQUIRE", "acquire.cluster");
        assertEquals(List.of(), races(cluster, new int[] {2, 1, 1}));
        assertTrue(races(cluster, null).stream().anyMatch(m -> m.contains("RAW") && m.contains("'st.global.u32'")));
    }

    @Test
    void anAcquireOrdersOnlyWithReleasesOfThreadsInItsScope() {
        String release = PUBLISH.replace("PUBLISH_FLAG", "st.release.gpu.global.u32 [%f], 1;");
        List<String> found = races(release.replace("ACQUIRE", "acquire.cta"), null);
        assertTrue(found.stream().anyMatch(m -> m.contains("RAW") && m.contains("'st.global.u32'")), found.toString());
        assertEquals(List.of(), races(release.replace("ACQUIRE", "acquire.cluster"), new int[] {2, 1, 1}));
        assertTrue(races(release.replace("ACQUIRE", "acquire.cluster"), null).stream().anyMatch(m -> m.contains("RAW")));
        assertEquals(List.of(), races(release.replace("ACQUIRE", "acquire.sys"), null));
    }

    @Test
    void aFenceThenRelaxedStoreReleasesAsFarAsTheFenceReaches() {
        String fenced = PUBLISH.replace("ACQUIRE", "relaxed.gpu")
                .replace("ld.global.u32 %v, [%o];", "fence.acq_rel.gpu;\n    ld.global.u32 %v, [%o];");
        assertEquals(List.of(), races(fenced.replace("PUBLISH_FLAG", "fence.acq_rel.gpu;\n    st.relaxed.gpu.global.u32 [%f], 1;"), null));
        assertTrue(races(fenced.replace("PUBLISH_FLAG", "membar.cta;\n    st.relaxed.gpu.global.u32 [%f], 1;"), null)
                .stream().anyMatch(m -> m.contains("RAW")));
        assertTrue(races(fenced.replace("PUBLISH_FLAG", "fence.acq_rel.gpu;\n    st.relaxed.cta.global.u32 [%f], 1;"), null)
                .stream().anyMatch(m -> m.contains("RAW")));
    }
}
