package io.ptxrun.check;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.ptxrun.isa.Target;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Re-asks the installed ptxas about a random sample of corpus cases, so that the labels and
 * ptxrun are compared against the assembler actually present (skipped when `ptxas` is not on the
 * PATH). The seed is fixed unless `-Dptxrun.ptxasSeed=N` is given.
 */
class PtxasCrossCheckTest {
    static final int SAMPLE = 50;

    @TempDir
    Path dir;

    @Test
    void ptxrunAgreesWithInstalledPtxasOnASample() throws Exception {
        Assumptions.assumeTrue(ptxasAvailable(), "ptxas is not on the PATH");
        List<ConformanceCorpus.Case> all = new ArrayList<>(ConformanceCorpus.load());
        Collections.shuffle(all, new Random(Long.getLong("ptxrun.ptxasSeed", 20261123L)));
        List<String> mismatches = new ArrayList<>();
        for (ConformanceCorpus.Case c : all.subList(0, SAMPLE)) {
            boolean ptxasAccepts = runPtxas(c);
            boolean ptxrunAccepts = ConformanceCorpus.verdict(c).accepts();
            if (ptxasAccepts != ptxrunAccepts) {
                mismatches.add(c.id() + ": ptxas " + (ptxasAccepts ? "accepts" : "rejects") + ", ptxrun "
                        + (ptxrunAccepts ? "accepts" : "rejects"));
            }
        }
        assertEquals(List.of(), mismatches);
    }

    /** As the corpus generator does: --gpu-name is the target, or sm_75 below what ptxas can generate. */
    private boolean runPtxas(ConformanceCorpus.Case c) throws IOException, InterruptedException {
        Path file = dir.resolve("case.ptx");
        Files.writeString(file, c.ptx());
        String gpu = Target.parse(c.target()).filter(t -> t.sm() >= 75).map(Target::toString).orElse("sm_75");
        Process p = new ProcessBuilder("nice", "ptxas", "--gpu-name", gpu, file.toString(), "-o",
                dir.resolve("case.cubin").toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("ptxas timed out on " + c.id());
        }
        return p.exitValue() == 0;
    }

    private static boolean ptxasAvailable() {
        try {
            Process p = new ProcessBuilder("ptxas", "--version").redirectErrorStream(true).start();
            p.getInputStream().readAllBytes();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (IOException | InterruptedException e) {
            return false;
        }
    }
}
