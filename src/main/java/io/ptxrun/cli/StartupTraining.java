package io.ptxrun.cli;

import java.util.Arrays;

/**
 * The work that the launcher's start-up cache is made from: `StartupTraining MODULE RUN-ARGS...`
 * checks MODULE, then runs the command line RUN-ARGS, in one process, so that one recording
 * holds the classes (and, on Java 25, the method profiles) of both commands. Its output is of no
 * interest; `./ptxrun` sends it nowhere.
 */
public final class StartupTraining {
    private StartupTraining() {}

    public static void main(String[] args) {
        if (args.length < 2) {
            System.err.println("usage: StartupTraining MODULE RUN-ARGS...");
            System.exit(ExitCode.USAGE);
        }
        int check = Main.run("check", args[0]);
        int run = Main.run(Arrays.copyOfRange(args, 1, args.length));
        // A failure means the cache would miss classes of a normal run: the launcher then makes none.
        System.exit(check == ExitCode.OK && run == ExitCode.OK ? ExitCode.OK : ExitCode.INPUT_ERROR);
    }
}
