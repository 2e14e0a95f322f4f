package io.ptxrun.exec;

/**
 * Runs kernels. Each call decodes the module once (module variables are allocated in the launch's
 * memory), then executes every CTA of the grid. Kernel misbehaviour — faults, traps, deadlocks,
 * budget exhaustion, unsupported instructions — is reported in the result, never thrown.
 */
public final class Interpreter {
    private Interpreter() {}

    public static ExecResult run(KernelLaunch launch) {
        return Grid.run(launch);
    }
}
