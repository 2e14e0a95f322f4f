package io.ptxrun.cli;

/** Process exit codes, documented in the README. */
public final class ExitCode {
    /** The input is valid / the kernel ran to completion. */
    public static final int OK = 0;
    /** The input has errors: PTX that does not parse or validate, or a bad launch description. */
    public static final int INPUT_ERROR = 1;
    /** Wrong usage, or a file that cannot be read or written. */
    public static final int USAGE = 2;
    /** The kernel ran but did not complete: trap, error, deadlock or timeout. */
    public static final int RUN_FAILED = 3;
    /** Java ran out of heap or stack (the simulator's own limits end in 1 or 3 with a message). */
    public static final int OUT_OF_RESOURCES = 4;
    /** The kernel ran to completion, but the hazard detector found races or other hazards. */
    public static final int HAZARDS = 5;

    private ExitCode() {}
}
