package io.ptxrun.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.TestData;
import io.ptxrun.cli.CompiledRuns;
import io.ptxrun.launch.LaunchFile;
import java.nio.file.Path;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/**
 * Region classes are reused across launches: a later launch of the same code, parsed and decoded
 * afresh, defines no new class and gives the same result file as the first and as the
 * interpreter; code that differs (an immediate, or the hazard detector's setting, under which
 * shared-memory accesses compile differently) gets classes of its own and its own results.
 */
class RegionClassReuseTest {
    private static final Path DIAMONDS = TestData.ROOT.resolve("compiler/diamonds/kernel.ptx");
    private static final Path SHARED_LOADS = TestData.ROOT.resolve("compiler/shared-loads/kernel.ptx");

    @Test
    void laterLaunchOfTheSameCodeDefinesNoClass() throws Exception {
        String ptx = TestData.read(DIAMONDS);
        LaunchFile launch = LaunchFile.read(DIAMONDS.resolveSibling("launch.json"));
        String first = result(ptx, launch, Compilation.ALL, false);
        long defined = RegionCompiler.definedClasses();
        String again = result(ptx, launch, Compilation.ALL, false);
        assertEquals(defined, RegionCompiler.definedClasses(), "classes defined by the second launch");
        assertEquals(first, again);
        assertEquals(result(ptx, launch, Compilation.NONE, false), again);
        assertTrue(again.contains("\"status\":\"ok\""), again);
    }

    @Test
    void differentCodeGetsClassesOfItsOwn() throws Exception {
        String ptx = TestData.read(DIAMONDS);
        String changed = ptx.replace("%r11, 100000;", "%r11, 7;");
        assertNotEquals(ptx, changed);
        LaunchFile launch = LaunchFile.read(DIAMONDS.resolveSibling("launch.json"));
        String original = result(ptx, launch, Compilation.ALL, false);
        long defined = RegionCompiler.definedClasses();
        String other = result(changed, launch, Compilation.ALL, false);
        assertTrue(RegionCompiler.definedClasses() > defined, "no class defined for the changed region");
        assertNotEquals(original, other, "the changed immediate changes no value");
        assertEquals(result(changed, launch, Compilation.NONE, false), other);
    }

    @Test
    void detectorSettingGetsClassesOfItsOwn() throws Exception {
        String ptx = TestData.read(SHARED_LOADS);
        LaunchFile launch = LaunchFile.parse("{\"kernel\": \"shared_loads\", \"grid\": [2], \"block\": [64],"
                + " \"buffers\": {\"out\": {\"type\": \"u32\", \"count\": 128, \"init\": 0}}, \"params\": [\"out\","
                + " {\"u32\": 80}, {\"u32\": 8}, {\"u32\": 70}, {\"u32\": 1000}, {\"s32\": 0}, {\"s32\": 0}],"
                + " \"dump\": [\"out\"]}");
        String off = result(ptx, launch, Compilation.ALL, false);
        long defined = RegionCompiler.definedClasses();
        String on = result(ptx, launch, Compilation.ALL, true);
        assertTrue(RegionCompiler.definedClasses() > defined, "no class defined with the detector on");
        assertEquals(result(ptx, launch, Compilation.NONE, true), on);
        defined = RegionCompiler.definedClasses();
        assertEquals(off, result(ptx, launch, Compilation.ALL, false));
        assertEquals(defined, RegionCompiler.definedClasses(), "classes defined by the launch with the detector off again");
        assertEquals(result(ptx, launch, Compilation.NONE, false), off);
    }

    private static String result(String ptx, LaunchFile launch, Compilation compilation, boolean hazards)
            throws Exception {
        KernelLaunch.Limits limits = new KernelLaunch.Limits(Long.MAX_VALUE, OptionalLong.empty(), 1,
                SyncOptions.DEFAULT.withHazards(hazards)).withCompilation(compilation);
        return CompiledRuns.result("kernel.ptx", ptx, launch, limits);
    }
}
