package io.ptxrun.exec;

/**
 * Which straight-line regions the engine compiles to JVM bytecode ({@link Regions}); the results,
 * diagnostics and statistics are the same in every mode.
 */
public enum Compilation {
    /** None: the interpreter runs every instruction (the reference). */
    NONE,
    /** Regions entered often ({@link Regions#HOT} times); the interpreter runs the rest. */
    HOT,
    /** Every region, at its first entry. */
    ALL;

    /** Parses {@code none}, {@code hot} or {@code all}. */
    public static Compilation parse(String s) {
        for (Compilation c : values()) {
            if (c.name().equalsIgnoreCase(s)) {
                return c;
            }
        }
        throw new IllegalArgumentException("--compile must be 'hot', 'all' or 'none', got '" + s + "'");
    }
}
