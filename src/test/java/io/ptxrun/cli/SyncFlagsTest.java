package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The synchronization flags of the run command: --warn-only and --async-copies. */
class SyncFlagsTest {
    private static final String CASE = "testdata/bugs/sync-mbarrier-init-live/";

    @Test
    void undefinedBehaviourStopsTheRunUnlessWarnOnly() {
        CliRun.Run stopped = CliRun.run(CASE + "kernel.ptx", "--launch", CASE + "launch.json");
        assertNotEquals(ExitCode.OK, stopped.code());
        assertTrue(stopped.err().contains(":18:5: error: undefined behaviour: mbarrier.init on a valid mbarrier"),
                stopped.err());

        CliRun.Run warned = CliRun.run(CASE + "kernel.ptx", "--launch", CASE + "launch.json", "--warn-only");
        assertEquals(ExitCode.OK, warned.code(), warned.err());
        assertTrue(warned.err().contains(":18:5: warning: undefined behaviour: mbarrier.init"), warned.err());
    }

    @Test
    void asyncCopiesTakesEagerLazyOrRandomSeed() {
        String dir = "testdata/run/sync-cpasync-double-buffer/";
        for (String timing : new String[] {"eager", "lazy", "random:5"}) {
            CliRun.Run r = CliRun.run(dir + "kernel.ptx", "--launch", dir + "launch.json", "--async-copies", timing);
            assertEquals(ExitCode.OK, r.code(), timing + ": " + r.err());
        }
        CliRun.Run bad = CliRun.run(dir + "kernel.ptx", "--launch", dir + "launch.json", "--async-copies", "soon");
        assertEquals(ExitCode.USAGE, bad.code());
        assertTrue(bad.err().contains("--async-copies must be"), bad.err());
    }
}
