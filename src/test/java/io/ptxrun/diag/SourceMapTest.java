package io.ptxrun.diag;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Module;
import io.ptxrun.ast.SourcePos;
import io.ptxrun.syntax.PtxParser;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** CUDA locations from .loc/.file as nvcc -lineinfo writes them (the chains read off the PTX by hand). */
class SourceMapTest {
    private static Module parse(String relative) {
        Path p = TestData.ROOT.resolve(relative);
        return PtxParser.parseModule(p.getFileName().toString(), TestData.read(p)).value();
    }

    @Test
    void anInlinedStoreNamesItsLineAndTheCallSite() {
        SourceMap map = SourceMap.of(parse("bugs/nvcc-lineinfo-oob/kernel.ptx"));
        // line 47: st.global.u32 after `.loc 1 5 5, function_name $L__info_string0, inlined_at 1 12 9`
        CudaLocation l = map.locate(new SourcePos("kernel.ptx", 47, 2)).orElseThrow();
        assertEquals("/tmp/ptxrun-nvcc-cases/nvcc-lineinfo-oob/kernel.cu:5:5 (in scatter, inlined at "
                + "/tmp/ptxrun-nvcc-cases/nvcc-lineinfo-oob/kernel.cu:12:9)", l.toString());
        assertEquals(12, l.inlinedAt().orElseThrow().line());
        // line 45: add.s32 after `.loc 1 12 9`: not inlined
        assertEquals("/tmp/ptxrun-nvcc-cases/nvcc-lineinfo-oob/kernel.cu:12:9",
                map.locate(new SourcePos("kernel.ptx", 45, 2)).orElseThrow().toString());
    }

    @Test
    void chainsFollowTheCallSitesOutToTheKernel() {
        SourceMap map = SourceMap.of(parse("bugs/nvcc-barrier-hang/kernel.ptx"));
        // line 149: try_wait under `.loc 2 192 5 ... inlined_at 6 43 5`; 6 43 5 was inlined at 4 68 5,
        // that at 2 370 5, that at 2 382 5, that at the kernel's 1 13 9.
        CudaLocation l = map.locate(new SourcePos("kernel.ptx", 149, 2)).orElseThrow();
        StringBuilder chain = new StringBuilder(l.line() + "");
        for (CudaLocation u = l; u.inlinedAt().isPresent(); u = u.inlinedAt().get()) {
            chain.append(" <- ").append(u.inlinedAt().get().line());
        }
        assertEquals("192 <- 43 <- 68 <- 370 <- 382 <- 13", chain.toString());
        assertTrue(l.inlinedAt().get().inlinedAt().get().inlinedAt().get().inlinedAt().get().function()
                .orElseThrow().equals("arrive_and_wait"), l::toString);
    }

    @Test
    void lineZeroAndModulesWithoutLineInformationGiveNoLocation() {
        SourceMap map = SourceMap.of(parse("bugs/nvcc-barrier-hang/kernel.ptx"));
        // line 159: cvta after `.loc 4 0 5`, code the compiler gives no line
        assertTrue(map.locate(new SourcePos("kernel.ptx", 159, 2)).isEmpty());
        assertTrue(SourceMap.of(parse("run/nvcc-reduce-shared/kernel.ptx")).isEmpty());
    }

    @Test
    void mangledNamesShortenToTheirLastComponent() {
        assertEquals("wait", SourceMap.shortName("_ZNK4cuda3__47barrierILNS_3std3__412thread_scopeE2ENS3_18"
                + "__empty_completionEE4waitEOm"));
        assertEquals("__cccl_thread_poll_with_backoff", SourceMap.shortName("_ZN4cuda3std3__431__cccl_thread_"
                + "poll_with_backoffINS1_27__barrier_poll_tester_phaseINS_3__47barrierILNS1_12thread_scopeE2ENS1_18"
                + "__empty_completionEEEEEEEbOT_NS1_6chrono8durationIxNS1_5ratioILl1ELl1000000000EEEEE"));
        assertEquals("init", SourceMap.shortName("_ZN4cuda3__44initEPNS0_7barrierILNS_3std3__412thread_scopeE2E"
                + "NS3_18__empty_completionEEElS5_"));
        assertEquals("atomicAdd", SourceMap.shortName("_ZN37_INTERNAL_c5ecb5fe_10_globals_cu_coef9atomicAddEPii"));
        assertEquals("plain_name", SourceMap.shortName("plain_name"));
    }
}
