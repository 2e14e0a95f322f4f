package io.ptxrun.exec;

/**
 * A state space as the engine sees it. {@link Decoder} resolves each instruction's space once (a
 * function's .param variables live in its frame, so they are {@link #LOCAL}; a kernel's are {@link
 * #KPARAM}); only a generic address is resolved when it is used, by the window it falls in ({@link
 * #ofGeneric}). Global addresses are real, so they are their own generic addresses; each other
 * space that generic addresses reach has a window of {@link #WINDOW_SIZE} bytes.
 */
enum Space {
    GENERIC("generic", 0),
    GLOBAL("global", 0),
    SHARED("shared", 0x1000_0000_0000L),
    LOCAL("local", 0x2000_0000_0000L),
    CONST("const", 0x3000_0000_0000L),
    /** A kernel's parameters. */
    KPARAM("param", 0x4000_0000_0000L);

    static final long WINDOW_SIZE = 0x1_0000_0000L;

    /** The name messages give the space. */
    final String spelling;
    /** Where the space's window starts among generic addresses (0 for global and generic). */
    final long window;

    Space(String spelling, long window) {
        this.spelling = spelling;
        this.window = window;
    }

    /** The space a generic address lies in: the window it falls in, else global. */
    static Space ofGeneric(long a) {
        if (a >= SHARED.window && a < SHARED.window + WINDOW_SIZE) {
            return SHARED;
        }
        if (a >= LOCAL.window && a < LOCAL.window + WINDOW_SIZE) {
            return LOCAL;
        }
        if (a >= CONST.window && a < CONST.window + WINDOW_SIZE) {
            return CONST;
        }
        if (a >= KPARAM.window && a < KPARAM.window + WINDOW_SIZE) {
            return KPARAM;
        }
        return GLOBAL;
    }

    /** Instructions may only read these. */
    boolean readOnly() {
        return this == CONST || this == KPARAM;
    }
}
