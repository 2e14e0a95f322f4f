package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * Which programs can order threads of two clusters ({@code Program.ordersClusters}): only those
 * with an atomic or a strong access, the writes that release to another cluster. Where none
 * can, the hazard detector on several workers records fewer global reads.
 */
class OrdersClustersTest {
    private static boolean ordersClusters(String body) {
        String ptx = """
                .version 8.0
                .target sm_90
                .address_size 64
                .visible .entry k(.param .u64 p)
                {
                    .reg .u64 %rd<4>;
                    .reg .u32 %r<4>;
                    ld.param.u64 %rd1, [p];
                    cvta.to.global.u64 %rd1, %rd1;
                """ + body + """
                    ret;
                }
                """;
        Harness h = new Harness(ptx);
        return Decoder.decode(h.module, h.memory).ordersClusters;
    }

    @Test
    void plainLoadsStoresAndBarriersDoNot() {
        assertEquals(false, ordersClusters("""
                ld.global.u32 %r1, [%rd1];
                ld.global.nc.u32 %r2, [%rd1+4];
                bar.sync 0;
                st.global.u32 [%rd1+8], %r1;
                fence.acq_rel.gpu;
                """));
    }

    @Test
    void atomicsAndStrongAccessesDo() {
        for (String body : new String[] {"atom.global.add.u32 %r1, [%rd1], 1;", "red.global.add.u32 [%rd1], 1;",
                "st.release.gpu.global.u32 [%rd1], %r1;", "st.relaxed.gpu.global.u32 [%rd1], %r1;",
                "ld.acquire.gpu.global.u32 %r1, [%rd1];", "st.volatile.global.u32 [%rd1], %r1;"}) {
            assertTrue(ordersClusters(body), body);
        }
    }
}
