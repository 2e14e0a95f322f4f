package io.ptxrun.exec;

/** How a run ended. */
public enum ExecStatus {
    OK, TRAP, ERROR, DEADLOCK, TIMEOUT;

    /** The word the result format uses (`ok`, `trap`, ...). */
    public String word() {
        return name().toLowerCase();
    }
}
