package io.ptxrun.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher script `./ptxrun`: which Java it picks and how it makes and uses the start-up
 * cache. It runs here in a copy of the project with a built jar in place (so it builds nothing),
 * against stand-in Java homes whose `java` logs its arguments and makes the cache file when asked
 * to dump one.
 */
class LauncherScriptTest {
    private static final String FAKE_JAVA = """
            #!/usr/bin/env bash
            echo "$0 $*" >> "$FAKE_JAVA_LOG"
            out="" make=""
            for a in "$@"; do
              case "$a" in
                -XX:AOTMode=record|-XX:DumpLoadedClassList=*) [[ "${FAKE_JAVA_FAIL:-}" == training ]] && exit 1 ;;
                -XX:AOTMode=create|-Xshare:dump) make=1 ;;
                -XX:AOTCache=*|-XX:SharedArchiveFile=*) out="${a#*=}" ;;
              esac
            done
            if [[ -n "$make" ]]; then echo cache > "$out"; fi
            exit 0
            """;

    @TempDir
    Path dir;
    Path root;
    Path jvms;
    Path log;
    Path pathBin;

    @BeforeEach
    void project() throws IOException {
        root = dir.resolve("project");
        Files.createDirectories(root.resolve("src/main"));
        Files.createDirectories(root.resolve("grammar"));
        Files.writeString(root.resolve("pom.xml"), "<project/>");
        Files.copy(Path.of("ptxrun"), root.resolve("ptxrun"), StandardCopyOption.COPY_ATTRIBUTES);
        FileTime old = FileTime.fromMillis(System.currentTimeMillis() - 3_600_000);
        for (String p : List.of("src/main", "grammar", "pom.xml")) {
            Files.setLastModifiedTime(root.resolve(p), old);
        }
        Files.createDirectories(root.resolve("target"));
        Files.writeString(root.resolve("target/ptxrun.jar"), "a built jar");
        jvms = dir.resolve("jvm");
        log = dir.resolve("java.log");
        pathBin = dir.resolve("bin");
        Files.createDirectories(pathBin);
    }

    private Path javaHome(String name, String version, String runtime) throws IOException {
        Path home = jvms.resolve(name);
        Files.createDirectories(home.resolve("bin"));
        Path java = home.resolve("bin/java");
        Files.writeString(java, FAKE_JAVA);
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test Vendor\"\nJAVA_RUNTIME_VERSION=\"" + runtime
                + "\"\nJAVA_VERSION=\"" + version + "\"\nMODULES=\"java.base\"\n");
        return home;
    }

    /** Puts home's java first on PATH, as `java`. */
    private void onPath(Path home) throws IOException {
        Files.deleteIfExists(pathBin.resolve("java"));
        Files.createSymbolicLink(pathBin.resolve("java"), home.resolve("bin/java"));
    }

    private record Launch(int code, List<String> javaCalls) {
        /** The final call: the one that runs ptxrun itself (the training runs its main class too, earlier). */
        String run() {
            return javaCalls.stream().filter(c -> c.contains(" io.ptxrun.cli.Main ")).reduce((a, b) -> b).orElseThrow();
        }

        boolean trained() {
            return javaCalls.stream().anyMatch(c -> c.contains("-XX:AOTMode=record") || c.contains("DumpLoadedClassList"));
        }
    }

    private Launch launch(Map<String, String> env) throws IOException, InterruptedException {
        return launch(env, "check", "a.ptx");
    }

    private Launch launch(Map<String, String> env, String... args) throws IOException, InterruptedException {
        Files.deleteIfExists(log);
        List<String> command = new ArrayList<>(List.of("bash", root.resolve("ptxrun").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().remove("JAVA_HOME");
        pb.environment().remove("PTXRUN_JAVA");
        pb.environment().remove("PTXRUN_JAVA_OPTS");
        pb.environment().remove("PTXRUN_STARTUP_CACHE");
        pb.environment().put("PATH", pathBin + ":" + System.getenv("PATH"));
        pb.environment().put("PTXRUN_JAVA_DIRS", jvms.toString());
        pb.environment().put("FAKE_JAVA_LOG", log.toString());
        pb.environment().putAll(env);
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String output = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "launcher hung");
        List<String> calls = Files.exists(log) ? Files.readAllLines(log) : List.of();
        assertFalse(calls.isEmpty(), "no java was run: " + output);
        return new Launch(p.exitValue(), calls);
    }

    /** The start-up caches made (not the file that remembers the Java chosen). */
    private List<String> cacheFiles() throws IOException {
        Path caches = root.resolve("target/startup");
        if (!Files.isDirectory(caches)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(caches)) {
            return s.map(f -> f.getFileName().toString()).filter(f -> !f.equals("java")).sorted().toList();
        }
    }

    @Test
    void theNewestJavaIsPreferredAndGetsAnAotCache() throws Exception {
        Path j17 = javaHome("jdk-17", "17.0.9", "17.0.9+9");
        Path j25 = javaHome("jdk-25", "25.0.1", "25.0.1+8-LTS");
        onPath(j17);
        Launch l = launch(Map.of());
        assertEquals(0, l.code());
        assertTrue(l.run().startsWith(j25.resolve("bin/java").toString()), l.run());
        assertTrue(l.javaCalls().stream().anyMatch(c -> c.contains("-XX:AOTMode=create")), l.javaCalls().toString());
        assertEquals(List.of("Test_Vendor-25.0.1+8-LTS.check.aot"), cacheFiles());
        assertTrue(l.run().contains("-XX:AOTCache=" + root.resolve("target/startup/Test_Vendor-25.0.1+8-LTS.check.aot")),
                l.run());
        // Made once: the next run maps it without training again.
        Launch again = launch(Map.of());
        assertFalse(again.trained(), again.javaCalls().toString());
        assertEquals(1, again.javaCalls().size());
    }

    @Test
    void checkAndRunHaveCachesOfTheirOwn() throws Exception {
        Path j25 = javaHome("jdk-25", "25.0.1", "25.0.1+8-LTS");
        onPath(j25);
        Launch check = launch(Map.of());
        assertTrue(check.javaCalls().stream().anyMatch(c -> c.contains("-XX:AOTMode=record")
                && c.contains("io.ptxrun.cli.Main check ")), check.javaCalls().toString());
        // The cache is recorded and made with the options the check runs with.
        String checkOptions = "-XX:+UseSerialGC -Xss16m -XX:TieredStopAtLevel=1 -Xmn400m -XX:-UsePerfData ";
        assertTrue(check.javaCalls().stream().filter(c -> c.contains("-XX:AOTMode=")).allMatch(c -> c.contains(checkOptions)),
                check.javaCalls().toString());
        assertTrue(check.run().contains(checkOptions), check.run());
        // The heap in huge pages where this machine's kernel gives them on request, as the script reads it.
        Path thp = Path.of("/sys/kernel/mm/transparent_hugepage/enabled");
        String thpMode = Files.isReadable(thp) ? Files.readString(thp) : "";
        assertEquals(thpMode.contains("[madvise]") || thpMode.contains("[always]"),
                check.run().contains(" -XX:+UseTransparentHugePages "), check.run());
        // One module compiles late and starts with a smaller heap (the options after the cache's win); several, as usual.
        assertTrue(check.run().contains(" -XX:CompileThresholdScaling=10 -Xms128m -Xmn112m "), check.run());
        assertTrue(check.run().indexOf(" -Xmn112m ") > check.run().indexOf(" -Xmn400m "), check.run());
        String many = launch(Map.of(), "check", "a.ptx", "b.ptx").run();
        assertFalse(many.contains("CompileThresholdScaling") || many.contains("-Xmn112m"), many);
        Launch run = launch(Map.of(), "k.ptx", "--launch", "l.json");
        assertTrue(run.javaCalls().stream().anyMatch(c -> c.contains("io.ptxrun.cli.StartupTraining ")),
                run.javaCalls().toString());
        assertTrue(run.run().contains("-XX:AOTCache=" + root.resolve("target/startup/Test_Vendor-25.0.1+8-LTS.run.aot")),
                run.run());
        // A run within the default budget has the quick compiler alone, trained so, and without
        // Java 25's method profiles (the optimizing compiler's), as a check.
        assertTrue(check.javaCalls().stream().anyMatch(c -> c.contains("-XX:-AOTRecordTraining -XX:AOTMode=record")),
                check.javaCalls().toString());
        assertTrue(run.run().contains(" -XX:TieredStopAtLevel=1 "), run.run());
        assertTrue(run.javaCalls().stream().filter(c -> c.contains("-XX:AOTMode=record"))
                .allMatch(c -> c.contains(" -XX:TieredStopAtLevel=1 -XX:+UnlockDiagnosticVMOptions -XX:-AOTRecordTraining ")),
                run.javaCalls().toString());
        assertEquals(List.of("Test_Vendor-25.0.1+8-LTS.check.aot", "Test_Vendor-25.0.1+8-LTS.run.aot"), cacheFiles());
        assertFalse(launch(Map.of(), "check", "b.ptx").trained());
        assertFalse(launch(Map.of(), "--version").trained());
        assertFalse(launch(Map.of(), "k.ptx", "--launch", "l.json", "--max-instructions", "1000000000").trained());
        assertFalse(launch(Map.of(), "k.ptx", "--launch", "l.json", "--compile", "hot").trained());
        // A larger budget asks for a long run: both compilers, with profiles, and a cache of its own.
        // So does a run on the interpreter alone.
        for (List<String> args : List.of(List.of("k.ptx", "--launch", "l.json", "--max-instructions", "2000000000"),
                List.of("k.ptx", "--max-instructions=5000000000", "--launch", "l.json"),
                List.of("k.ptx", "--launch", "l.json", "--compile", "none"), List.of("k.ptx", "--compile=none"))) {
            Launch longRun = launch(Map.of(), args.toArray(String[]::new));
            assertFalse(longRun.run().contains("TieredStopAtLevel"), longRun.run());
            assertTrue(longRun.run().contains("-XX:AOTCache="
                    + root.resolve("target/startup/Test_Vendor-25.0.1+8-LTS.long-run.aot")), longRun.run());
            assertFalse(longRun.javaCalls().stream().anyMatch(c -> c.contains("AOTRecordTraining")),
                    longRun.javaCalls().toString());
        }
        assertEquals(List.of("Test_Vendor-25.0.1+8-LTS.check.aot", "Test_Vendor-25.0.1+8-LTS.long-run.aot",
                "Test_Vendor-25.0.1+8-LTS.run.aot"), cacheFiles());
    }

    /** A change of the launcher (its options) makes the caches again, as a new jar does. */
    @Test
    void aNewerLauncherRemakesTheCache() throws Exception {
        onPath(javaHome("jdk-25", "25.0.1", "25.0.1+8-LTS"));
        assertTrue(launch(Map.of()).trained());
        assertFalse(launch(Map.of()).trained());
        Files.setLastModifiedTime(root.resolve("ptxrun"), FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        assertTrue(launch(Map.of()).trained());
    }

    @Test
    void theJavaChosenIsRememberedUntilAJavaHomeChanges() throws Exception {
        Path j21 = javaHome("jdk-21", "21.0.4", "21.0.4+7");
        onPath(j21);
        assertTrue(launch(Map.of()).run().startsWith(j21.resolve("bin/java").toString()));
        assertTrue(Files.readString(root.resolve("target/startup/java")).contains(j21.resolve("bin/java").toString()));
        assertTrue(launch(Map.of()).run().startsWith(j21.resolve("bin/java").toString()));

        // A newer Java installed beside it is found at once.
        Path j25 = javaHome("jdk-25", "25.0.1", "25.0.1+8-LTS");
        assertTrue(launch(Map.of()).run().startsWith(j25.resolve("bin/java").toString()));

        // So is an upgrade in place (the home directory changes), and another JAVA_HOME.
        Files.writeString(j21.resolve("release"), "IMPLEMENTOR=\"Test Vendor\"\nJAVA_RUNTIME_VERSION=\"26+1\"\n"
                + "JAVA_VERSION=\"26\"\n");
        Files.setLastModifiedTime(j21, FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        assertTrue(launch(Map.of()).run().startsWith(j21.resolve("bin/java").toString()));
        Path elsewhere = dir.resolve("elsewhere");
        Files.createDirectories(elsewhere);
        Path j27 = javaHome("jdk-27", "27", "27+1");
        Files.move(j27, elsewhere.resolve("jdk-27"));
        Launch withHome = launch(Map.of("JAVA_HOME", elsewhere.resolve("jdk-27").toString()));
        assertTrue(withHome.run().startsWith(elsewhere.resolve("jdk-27/bin/java").toString()), withHome.run());

        // A Java that is gone is not run.
        Launch back = launch(Map.of());
        assertTrue(back.run().startsWith(j21.resolve("bin/java").toString()), back.run());
        Files.delete(j21.resolve("bin/java"));
        assertTrue(launch(Map.of()).run().startsWith(j25.resolve("bin/java").toString()));
    }

    @Test
    void anOlderJavaFoundLaterDoesNotReplaceANewerOne() throws Exception {
        // Named so that the directory lists the newest first.
        Path j25 = javaHome("a-jdk-25", "25.0.1", "25.0.1+8-LTS");
        javaHome("b-jdk-21", "21.0.4", "21.0.4+7");
        onPath(j25);
        Launch l = launch(Map.of("JAVA_HOME", javaHome("c-jdk-17", "17.0.9", "17.0.9+9").toString()));
        assertTrue(l.run().startsWith(j25.resolve("bin/java").toString()), l.run());
    }

    @Test
    void java17AloneRunsWithAClassDataSharingArchive() throws Exception {
        Path j17 = javaHome("jdk-17", "17.0.9", "17.0.9+9");
        javaHome("jdk-11", "11.0.2", "11.0.2+9");
        javaHome("jdk-8", "1.8.0_392", "1.8.0_392-b08");
        onPath(j17);
        Launch l = launch(Map.of());
        assertEquals(0, l.code());
        assertTrue(l.run().startsWith(j17.resolve("bin/java").toString()), l.run());
        assertTrue(l.javaCalls().stream().anyMatch(c -> c.contains("-Xshare:dump")), l.javaCalls().toString());
        assertEquals(List.of("Test_Vendor-17.0.9+9.check.jsa", "Test_Vendor-17.0.9+9.check.jsa.bytes"), cacheFiles());
        assertTrue(l.run().contains("-XX:SharedArchiveFile=" + root.resolve("target/startup/Test_Vendor-17.0.9+9.check.jsa")
                + " -Xshare:auto"), l.run());
        assertFalse(l.run().contains("AOT"), l.run());
    }

    @Test
    void eachJavaBuildHasItsOwnCacheAndANewerJarRemakesIt() throws Exception {
        Path a = javaHome("jdk-25a", "25.0.1", "25.0.1+8-LTS");
        launch(Map.of("PTXRUN_JAVA", a.resolve("bin/java").toString()));
        Path b = javaHome("jdk-25b", "25.0.2", "25.0.2+10-LTS");
        Launch withB = launch(Map.of("PTXRUN_JAVA", b.resolve("bin/java").toString()));
        assertTrue(withB.trained(), "another Java build must not map the first one's cache");
        assertTrue(withB.run().startsWith(b.resolve("bin/java").toString()), withB.run());
        assertEquals(List.of("Test_Vendor-25.0.1+8-LTS.check.aot", "Test_Vendor-25.0.2+10-LTS.check.aot"), cacheFiles());

        Files.setLastModifiedTime(root.resolve("target/ptxrun.jar"),
                FileTime.fromMillis(System.currentTimeMillis() + 60_000));
        Launch rebuilt = launch(Map.of("PTXRUN_JAVA", a.resolve("bin/java").toString()));
        assertTrue(rebuilt.trained(), "a cache older than the jar must be made again");
    }

    @Test
    void anArchiveCutShortIsMadeAgainBeforeJava17MapsIt() throws Exception {
        Path j17 = javaHome("jdk-17", "17.0.9", "17.0.9+9");
        onPath(j17);
        launch(Map.of());
        Path archive = root.resolve("target/startup/Test_Vendor-17.0.9+9.check.jsa");
        Files.writeString(archive, "cut");
        Launch l = launch(Map.of());
        assertTrue(l.trained(), "an archive of another length must not be mapped: " + l.javaCalls());
        assertEquals("cache\n", Files.readString(archive));
        assertTrue(l.run().contains("-XX:SharedArchiveFile=" + archive), l.run());
    }

    @Test
    void aCacheThatCannotBeMadeLeavesAPlainRun() throws Exception {
        Path j25 = javaHome("jdk-25", "25.0.1", "25.0.1+8-LTS");
        onPath(j25);
        Launch failed = launch(Map.of("FAKE_JAVA_FAIL", "training"));
        assertEquals(0, failed.code());
        assertFalse(failed.run().contains("AOTCache"), failed.run());
        assertEquals(List.of("Test_Vendor-25.0.1+8-LTS.check.aot.failed"), cacheFiles(),
                "no partial files are left, only the mark of the failure");
        // The next start does not spend the training's time failing again, until the jar is newer.
        Launch again = launch(Map.of("FAKE_JAVA_FAIL", "training"));
        assertFalse(again.trained(), again.javaCalls().toString());
        assertFalse(again.run().contains("AOTCache"), again.run());
        Files.setLastModifiedTime(root.resolve("target/startup/Test_Vendor-25.0.1+8-LTS.check.aot.failed"),
                FileTime.fromMillis(System.currentTimeMillis() - 7_200_000)); // the jar is newer than the mark
        Launch rebuilt = launch(Map.of());
        assertTrue(rebuilt.trained(), "a newer jar tries again");
        assertTrue(rebuilt.run().contains("AOTCache"), rebuilt.run());
        assertEquals(List.of("Test_Vendor-25.0.1+8-LTS.check.aot"), cacheFiles(), "the mark goes with success");

        // target/startup cannot be made (a file is in the way): the run goes on without a cache.
        Files.deleteIfExists(root.resolve("target/startup/java"));
        Files.deleteIfExists(root.resolve("target/startup/Test_Vendor-25.0.1+8-LTS.check.aot"));
        Files.deleteIfExists(root.resolve("target/startup"));
        Files.writeString(root.resolve("target/startup"), "in the way");
        Launch unwritable = launch(Map.of());
        assertEquals(0, unwritable.code());
        assertFalse(unwritable.run().contains("AOTCache"), unwritable.run());
    }

    @Test
    void theCacheCanBeTurnedOff() throws Exception {
        Path j25 = javaHome("jdk-25", "25.0.1", "25.0.1+8-LTS");
        onPath(j25);
        Launch l = launch(Map.of("PTXRUN_STARTUP_CACHE", "off"));
        assertEquals(1, l.javaCalls().size(), l.javaCalls().toString());
        assertFalse(l.run().contains("AOTCache") || l.run().contains("SharedArchiveFile"), l.run());
        assertEquals(List.of(), cacheFiles());
    }

    @Test
    void anExplicitJavaWinsOverANewerOne() throws Exception {
        Path j17 = javaHome("jdk-17", "17.0.9", "17.0.9+9");
        Path j25 = javaHome("jdk-25", "25.0.1", "25.0.1+8-LTS");
        onPath(j25);
        Launch l = launch(Map.of("PTXRUN_JAVA", j17.resolve("bin/java").toString()));
        assertTrue(l.run().startsWith(j17.resolve("bin/java").toString()), l.run());
        assertNotEquals(List.of(), cacheFiles());
        assertTrue(cacheFiles().get(0).endsWith(".jsa"), cacheFiles().toString());
        List<String> notSeventeen = new ArrayList<>(l.javaCalls());
        notSeventeen.removeIf(c -> c.startsWith(j17.toString()));
        assertEquals(List.of(), notSeventeen);
    }
}
