package io.ptxrun.cli;

import static io.ptxrun.cli.CliRun.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.cli.CliRun.Run;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The command-line words: options with values, flags, positional words, help and version, usage errors. */
class CommandLineTest {
    private static final CommandLine COMMAND = new CommandLine("tool", List.of(
            new CommandLine.Option("--size", "N", "A size."),
            new CommandLine.Option("--name", "NAME", "A name, repeatable."),
            new CommandLine.Option("--quiet", null, "A flag.")));

    private static final String MODULE = "testdata/nvcc/reduce.sm_90.ptx";

    private static String usageError(String[] words, int maxPositional) {
        return assertThrows(CommandLine.UsageException.class, () -> COMMAND.parse(words, 0, maxPositional))
                .getMessage();
    }

    @Test
    void optionsTakeTheNextWordOrTheTextAfterAnEqualsSign() throws Exception {
        CommandLine.Parsed p = COMMAND.parse(
                new String[] {"a", "--size", "-3", "--name=x", "--name", "y", "--quiet", "-", "--", "--size"}, 0, 9);
        assertEquals(-3, p.longValue("--size", 0));
        assertEquals(List.of("x", "y"), p.values("--name"));
        assertEquals("y", p.value("--name"));
        assertTrue(p.flag("--quiet"));
        assertEquals(List.of("a", "-", "--size"), p.positional);
        assertFalse(p.help || p.version);
    }

    @Test
    void absentOptionsGiveTheirDefaults() throws Exception {
        CommandLine.Parsed p = COMMAND.parse(new String[] {"--quiet=false"}, 0, 1);
        assertFalse(p.flag("--quiet"));
        assertEquals(7, p.intValue("--size", 7));
        assertEquals(null, p.values("--name"));
    }

    @Test
    void helpAndVersionWinAnywhereBeforeTheEndOfOptions() throws Exception {
        assertTrue(COMMAND.parse(new String[] {"--bogus", "--size", "-h"}, 0, 0).help);
        assertTrue(COMMAND.parse(new String[] {"x", "--version"}, 0, 0).version);
        CommandLine.Parsed both = COMMAND.parse(new String[] {"-Vh"}, 0, 0);
        assertTrue(both.help && both.version);
        assertFalse(COMMAND.parse(new String[] {"--", "-h"}, 0, 1).help);
    }

    @Test
    void wrongWordsAreUsageErrors() {
        assertEquals("Unknown option: '--siz'\nDid you mean '--size'?", usageError(new String[] {"--siz", "1"}, 1));
        assertEquals("Unknown option: '--zzzzzzzzzz'", usageError(new String[] {"--zzzzzzzzzz"}, 1));
        assertEquals("Missing required parameter for option '--size' (N)", usageError(new String[] {"--size"}, 1));
        assertEquals("Missing required parameter for option '--size' (N)",
                usageError(new String[] {"--size", "--quiet"}, 1));
        assertEquals("Unmatched argument at index 1: 'b'", usageError(new String[] {"a", "b"}, 1));
        assertEquals("Invalid value for option '--quiet': 'yes' is not a boolean",
                usageError(new String[] {"--quiet=yes"}, 1));
        assertEquals("Invalid value for option '--size': 'x' is not a long", assertThrows(
                CommandLine.UsageException.class,
                () -> COMMAND.parse(new String[] {"--size", "x"}, 0, 0).longValue("--size", 0)).getMessage());
        assertEquals("Invalid value for option '--size': '1.5' is not an int", assertThrows(
                CommandLine.UsageException.class,
                () -> COMMAND.parse(new String[] {"--size=1.5"}, 0, 0).intValue("--size", 0)).getMessage());
    }

    @Test
    void byteSizesTakeKMAndGSuffixes() throws Exception {
        assertEquals(512L << 20, Main.byteSize("512M"));
        assertEquals(2L << 30, Main.byteSize("2g"));
        assertEquals(100, Main.byteSize("100"));
        assertThrows(CommandLine.UsageException.class, () -> Main.byteSize("12Q"));
        assertThrows(CommandLine.UsageException.class, () -> Main.byteSize("G"));
        assertThrows(CommandLine.UsageException.class, () -> Main.byteSize("99999999999999G"));
    }

    @Test
    void helpListsEveryOptionOfItsCommandAndVersionIsAnsweredByBoth() {
        Run help = run("--help");
        assertEquals(ExitCode.OK, help.code());
        for (String option : List.of("--launch=JSON", "--arg=ARG", "--json", "--max-memory=BYTES", "--compile=hot|all|none",
                "--cta-threads=N", "-h, --help", "-V, --version", "check")) {
            assertTrue(help.out().contains(option), option + " in\n" + help.out());
        }
        help.out().lines().forEach(line -> assertTrue(line.length() <= 80, line));
        Run checkHelp = run("check", MODULE, "-h");
        assertEquals(ExitCode.OK, checkHelp.code());
        assertTrue(checkHelp.out().startsWith("Usage: ptxrun check [OPTIONS] FILE...\n"), checkHelp.out());
        assertTrue(checkHelp.out().contains("--format=FORMAT"), checkHelp.out());
        assertEquals(run("--version").out(), run("check", "-V").out());
        assertTrue(run("-V").out().startsWith("ptxrun "));
    }

    @Test
    void usageErrorsSayWhereHelpIs() {
        Run noFile = run("check", "--Werror");
        assertEquals(ExitCode.USAGE, noFile.code());
        assertEquals("ptxrun: error: Missing required parameter: 'FILE'\n"
                + "Try 'ptxrun check --help' for more information.\n", noFile.err());
        Run format = run("check", "--format", "xml", MODULE);
        assertEquals(ExitCode.USAGE, format.code());
        assertTrue(format.err().startsWith("ptxrun: error: Invalid value for option '--format': expected one of "
                + "[text, json, sarif] (case-sensitive) but was 'xml'\n"), format.err());
        Run memory = run(MODULE, "--max-memory", "12Q");
        assertEquals(ExitCode.USAGE, memory.code());
        assertEquals("ptxrun: error: Invalid value for option '--max-memory': expected a byte count such as 512M or 2G,"
                + " got '12Q'\nTry 'ptxrun --help' for more information.\n", memory.err());
        Run two = run("a.ptx", "b.ptx");
        assertEquals(ExitCode.USAGE, two.code());
        assertTrue(two.err().startsWith("ptxrun: error: Unmatched argument at index 1: 'b.ptx'"), two.err());
        Run none = run();
        assertEquals(ExitCode.USAGE, none.code());
        assertTrue(none.err().startsWith("Usage: ptxrun [OPTIONS] FILE"), none.err());
    }
}
