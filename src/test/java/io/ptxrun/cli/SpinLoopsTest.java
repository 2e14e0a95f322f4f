package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.ptxrun.TestData;
import io.ptxrun.cli.CliRun.Run;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Spin loops on memory (testdata/bugs/nvcc-flag-spin-hang, testdata/spin, and the hardware-recorded
 * testdata/run/nvcc-flag-handoff-warps): a spin that nothing can end is a deadlock within a
 * second, a spin that another warp or a running CTA ends still runs to its result, a spin that
 * only a CTA not yet started could end says so, and a spin that changes its registers each time
 * round runs into the instruction budget.
 */
class SpinLoopsTest {
    private static final String HANG = "testdata/bugs/nvcc-flag-spin-hang/";
    private static final String LATER_CTA = "testdata/spin/nvcc-flag-later-cta/";
    private static final String COUNTING = "testdata/spin/nvcc-counting-spin-timeout/";
    private static final String HANDOFF = "testdata/run/nvcc-flag-handoff-warps/";

    @TempDir
    Path dir;

    /**
     * The text report of a case against its golden file (report.txt): the PTX line of the loop's
     * branch and the CUDA lines (checked against kernel.cu by the tests below) with their text.
     */
    private static void assertReport(String dir, String... flags) {
        java.util.List<String> args = new java.util.ArrayList<>(java.util.List.of(dir + "kernel.ptx", "--launch", dir + "launch.json"));
        args.addAll(java.util.List.of(flags));
        Run r = CliRun.run(args.toArray(String[]::new));
        assertEquals(ExitCode.RUN_FAILED, r.code(), r.err());
        String err = r.err().lines().filter(l -> !l.startsWith("INFO: Instrumented"))
                .map(l -> l + "\n").collect(java.util.stream.Collectors.joining());
        assertEquals(TestData.read(Path.of(dir + "report.txt")), err);
    }

    private static JsonNode json(Run r) throws Exception {
        return new ObjectMapper().readTree(r.out());
    }

    @Test
    void aSpinOnAFlagNothingSetsIsADeadlockWithinASecond() throws Exception {
        long start = System.nanoTime();
        Run r = CliRun.run(HANG + "kernel.ptx", "--launch", HANG + "launch.json", "--json");
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertEquals(ExitCode.RUN_FAILED, r.code(), r.err());
        JsonNode result = json(r);
        assertEquals("deadlock", result.get("status").asText());
        assertTrue(result.get("stats").get("wallMillis").asLong() < 1000, r.out());
        // the run itself (wallMillis) within a second; the command, with the first parse and class loading
        // of this JVM on a shared machine, within a few
        assertTrue(millis < 15000, "whole command took " + millis + " ms");
        // one report per warp, at the loop's branch, naming the CUDA loop and where it was inlined
        JsonNode ds = result.get("diagnostics");
        assertEquals(2, ds.size(), ds::toString);
        for (JsonNode d : ds) {
            assertEquals(36, d.get("line").asInt());
            assertEquals("exec.deadlock", d.get("rule").asText());
            assertTrue(d.get("message").asText().contains("spin forever in the loop closed by 'bra' at line 36 ["), d::toString);
            assertTrue(d.get("message").asText().contains("kernel.cu:3:5 (in wait_until_set, inlined at "), d::toString);
            assertEquals(3, d.get("source").get("line").asInt());
            assertEquals(8, d.get("source").get("inlinedAt").get(0).get("line").asInt());
        }
        java.util.List<String> cuda = TestData.read(Path.of(HANG + "kernel.cu")).lines().toList();
        assertTrue(cuda.get(2).contains("while (*(volatile const int *)flag == 0)") && cuda.get(7).contains("wait_until_set(flag)"));
        assertTrue(TestData.read(Path.of(HANG + "kernel.ptx")).lines().toList().get(35).contains("@%p1 bra"));
        assertReport(HANG);
    }

    @Test
    void aSpinThatAnotherWarpEndsRuns() throws Exception {
        JsonNode expected = new ObjectMapper().readTree(Path.of(HANDOFF + "expected.json").toFile());
        for (String threads : new String[] {"1", "2"}) {
            Run r = CliRun.run(HANDOFF + "kernel.ptx", "--launch", HANDOFF + "launch.json", "--json", "--cta-threads", threads);
            assertEquals(ExitCode.OK, r.code(), r.out() + r.err());
            assertEquals(expected.get("buffers").get("out").get("values"), json(r).get("buffers").get("out").get("values"));
        }
    }

    /** The producer warp computes for a long while without writing memory before it sets the flag. */
    private static final String LATE_PRODUCER = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry late_producer(.param .u64 pflag, .param .u64 pout)
            {
                .reg .b32 %t, %i, %f, %acc;
                .reg .b64 %flag, %out, %a;
                .reg .pred %p;
                ld.param.u64 %flag, [pflag];
                ld.param.u64 %out, [pout];
                cvta.to.global.u64 %flag, %flag;
                cvta.to.global.u64 %out, %out;
                mov.u32 %t, %tid.x;
                setp.lt.u32 %p, %t, 32;
                @%p bra CONSUMER;
                mov.u32 %i, 0;
                mov.u32 %acc, 1;
            WORK:
                mad.lo.u32 %acc, %acc, 3, %i;
                add.u32 %i, %i, 1;
                setp.lt.u32 %p, %i, 20000;
                @%p bra WORK;
                or.b32 %acc, %acc, 1;
                st.volatile.global.u32 [%flag], %acc;
                ret;
            CONSUMER:
            SPIN:
                ld.volatile.global.u32 %f, [%flag];
                setp.eq.u32 %p, %f, 0;
                @%p bra SPIN;
                mul.wide.u32 %a, %t, 4;
                add.u64 %a, %out, %a;
                st.global.u32 [%a], %f;
                ret;
            }
            """;

    @Test
    void aSpinWhileTheWriterStillComputesIsNoDeadlock() throws Exception {
        Path ptx = dir.resolve("late.ptx");
        Files.writeString(ptx, LATE_PRODUCER);
        int acc = 1;
        for (int i = 0; i < 20000; i++) {
            acc = acc * 3 + i;
        }
        acc |= 1;
        Run r = CliRun.run(ptx.toString(), "--grid", "1", "--block", "64", "--arg", "flag=u32[1]:0",
                "--arg", "out=u32[32]:0", "--json", "--cta-threads", "1");
        assertEquals(ExitCode.OK, r.code(), r.out() + r.err());
        JsonNode out = json(r).get("buffers").get("out").get("values");
        for (JsonNode v : out) {
            assertEquals(Integer.toUnsignedLong(acc), v.asLong());
        }
    }

    /**
     * Lane 0 polls the flag and counts each poll with a global atomic; warp 1 waits for the count
     * to reach 1000 and then sets the flag. Both loops keep their registers the same at the end of
     * each turn (warp 1 clears the value it read, and its turns end after that): only the count in memory moves, and the atomics
     * that move it are progress.
     */
    private static final String ATOMIC_PROGRESS = """
            .version 8.0
            .target sm_90
            .address_size 64
            .visible .entry atomic_progress(.param .u64 pflag, .param .u64 pcount, .param .u64 pout)
            {
                .reg .b32 %t, %f, %n;
                .reg .b64 %flag, %count, %out;
                .reg .pred %p;
                ld.param.u64 %flag, [pflag];
                ld.param.u64 %count, [pcount];
                ld.param.u64 %out, [pout];
                cvta.to.global.u64 %flag, %flag;
                cvta.to.global.u64 %count, %count;
                cvta.to.global.u64 %out, %out;
                mov.u32 %t, %tid.x;
                setp.eq.u32 %p, %t, 0;
                @%p bra POLLER;
                setp.lt.u32 %p, %t, 32;
                @%p bra DONE;
                mov.u32 %n, 0;
                mov.u32 %n, 0;
            WAIT:
                ld.volatile.global.u32 %n, [%count];
                setp.lt.u32 %p, %n, 1000;
                mov.u32 %n, 0;
                @%p bra WAIT;
                st.volatile.global.u32 [%flag], 1;
            DONE:
                ret;
            POLLER:
                red.global.add.u32 [%count], 1;
                ld.volatile.global.u32 %f, [%flag];
                setp.eq.u32 %p, %f, 0;
                @%p bra POLLER;
                st.global.u32 [%out], 1;
                ret;
            }
            """;

    @Test
    void aSpinThatOnlyAtomicsMoveIsNoDeadlock() throws Exception {
        Path ptx = dir.resolve("atomic.ptx");
        Files.writeString(ptx, ATOMIC_PROGRESS);
        Run r = CliRun.run(ptx.toString(), "--grid", "1", "--block", "64", "--arg", "flag=u32[1]:0",
                "--arg", "count=u32[1]:0", "--arg", "out=u32[1]:0", "--json", "--cta-threads", "1");
        assertEquals(ExitCode.OK, r.code(), r.out() + r.err());
        JsonNode buffers = json(r).get("buffers");
        assertEquals(1, buffers.get("out").get("values").get(0).asInt());
        assertTrue(buffers.get("count").get("values").get(0).asInt() >= 1000, buffers::toString);
    }

    @Test
    void aCtaWaitingForALaterCtaRunsWhenTheyRunTogetherAndSaysWhyWhenNot() throws Exception {
        JsonNode expected = new ObjectMapper().readTree(Path.of(LATER_CTA + "expected.json").toFile());
        Run together = CliRun.run(LATER_CTA + "kernel.ptx", "--launch", LATER_CTA + "launch.json", "--json",
                "--cta-threads", "2");
        assertEquals(ExitCode.OK, together.code(), together.out() + together.err());
        assertEquals(expected.get("buffers").get("out").get("values"), json(together).get("buffers").get("out").get("values"));

        Run alone = CliRun.run(LATER_CTA + "kernel.ptx", "--launch", LATER_CTA + "launch.json", "--json",
                "--cta-threads", "1");
        assertEquals(ExitCode.RUN_FAILED, alone.code(), alone.err());
        JsonNode result = json(alone);
        assertEquals("error", result.get("status").asText());
        assertTrue(result.get("stats").get("wallMillis").asLong() < 1000, alone.out());
        JsonNode d = result.get("diagnostics").get(0);
        assertEquals("exec.co-residency", d.get("rule").asText());
        assertTrue(d.get("message").asText().contains("only a CTA that has not started could write it"), d::toString);
        assertTrue(d.get("message").asText().contains("--cta-threads 2 runs them together"), d::toString);
        assertEquals(11, d.get("source").get("line").asInt());
    }

    @Test
    void aSpinThatCountsRunsIntoTheBudgetAtItsCudaLoop() throws Exception {
        JsonNode expected = new ObjectMapper().readTree(Path.of(COUNTING + "expected.json").toFile());
        Run r = CliRun.run(COUNTING + "kernel.ptx", "--launch", COUNTING + "launch.json", "--json",
                "--max-instructions", "1000000");
        assertEquals(ExitCode.RUN_FAILED, r.code(), r.err());
        JsonNode result = json(r);
        assertEquals(expected.get("status").asText(), result.get("status").asText());
        JsonNode d = result.get("diagnostics").get(0);
        assertEquals(expected.get("line").asInt(), d.get("line").asInt());
        assertTrue(d.get("message").asText().contains("in the loop closed by 'bra' at line 40 ["
                + "/tmp/ptxrun-nvcc-cases/nvcc-counting-spin-timeout/kernel.cu:5:5] (loop head at line 34,"), d::toString);
        assertTrue(TestData.read(Path.of(COUNTING + "kernel.cu")).lines().toList().get(4).contains("while ("));
        assertReport(COUNTING, "--max-instructions", "1000000");
        Run wall = CliRun.run(COUNTING + "kernel.ptx", "--launch", COUNTING + "launch.json", "--json", "--max-seconds", "1");
        String message = json(wall).get("diagnostics").get(0).get("message").asText();
        assertTrue(message.contains("(--max-seconds); CTA ctaid (0,0,0) warp 0: 32 lanes at " + COUNTING + "kernel.ptx:"), message);
        assertTrue(message.contains("kernel.cu:5:5]") || message.contains("kernel.cu:6:9]"), message);
    }

    @Test
    void deadlockTextsNameTheCudaLine() throws Exception {
        String hang = "testdata/bugs/nvcc-barrier-hang/";
        Run r = CliRun.run(hang + "kernel.ptx", "--launch", hang + "launch.json", "--json");
        String message = json(r).get("diagnostics").get(0).get("message").asText();
        assertTrue(message.contains("wait at 'mbarrier.try_wait.shared.b64' [/usr/local/cuda-13.0/include/cccl/cuda/"
                + "__barrier/barrier_block_scope.h:192:5 (in __try_wait, inlined at "), message);
        assertTrue(message.contains(", at /tmp/ptxrun-nvcc-cases/nvcc-barrier-hang/kernel.cu:13:9)] forever;"), message);
        assertTrue(TestData.read(Path.of(hang + "kernel.cu")).lines().toList().get(12).contains("bar.arrive_and_wait()"));
    }
}
