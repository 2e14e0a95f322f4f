package io.ptxrun.cli;

import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/**
 * `ptxrun FILE [launch options]` runs a kernel; `ptxrun check FILE...` validates. Exit codes are
 * in {@link ExitCode}.
 */
@Command(name = "ptxrun", mixinStandardHelpOptions = true, versionProvider = Main.Version.class,
        subcommands = {CheckCommand.class},
        description = "Parse, check and run PTX kernels without a GPU.")
public final class Main implements Callable<Integer> {
    @Parameters(arity = "0..1", paramLabel = "FILE", description = "PTX module to run.")
    Path file;

    @Spec
    CommandSpec spec;

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs the command line and returns the exit code (used by tests as well). */
    public static int run(String... args) {
        CommandLine cli = new CommandLine(new Main());
        cli.setParameterExceptionHandler((ex, a) -> {
            ex.getCommandLine().getErr().println("ptxrun: error: " + ex.getMessage());
            ex.getCommandLine().getErr().println("Try 'ptxrun --help' for more information.");
            return ExitCode.USAGE;
        });
        cli.setExecutionExceptionHandler((ex, c, parsed) -> {
            c.getErr().println("ptxrun: internal error: " + ex);
            return ExitCode.USAGE;
        });
        return cli.execute(args);
    }

    @Override
    public Integer call() {
        if (file == null) {
            spec.commandLine().usage(spec.commandLine().getErr());
            return ExitCode.USAGE;
        }
        spec.commandLine().getErr().println("ptxrun: error: kernel execution is not available in this build; "
                + "use 'ptxrun check " + file + "' to validate the module");
        return ExitCode.USAGE;
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"ptxrun 0.1.0 (PTX ISA 9.0)"};
        }
    }
}
