package io.ptxrun.ast;

/**
 * State spaces (PTX ISA 5.1) with the sub-spaces that instructions name (`.shared::cta`,
 * `.shared::cluster`, `.param::entry`, `.param::func`). GENERIC is the absence of a space.
 */
public enum StateSpace {
    REG(".reg"), SREG(".sreg"), CONST(".const"), GLOBAL(".global"), LOCAL(".local"),
    PARAM(".param"), PARAM_ENTRY(".param::entry"), PARAM_FUNC(".param::func"),
    SHARED(".shared"), SHARED_CTA(".shared::cta"), SHARED_CLUSTER(".shared::cluster"),
    TEX(".tex"), GENERIC("");

    public final String spelling;

    StateSpace(String spelling) {
        this.spelling = spelling;
    }

    /** `.shared` means `.shared::cta` (5.1.4). */
    public boolean isShared() {
        return this == SHARED || this == SHARED_CTA || this == SHARED_CLUSTER;
    }

    public boolean isParam() {
        return this == PARAM || this == PARAM_ENTRY || this == PARAM_FUNC;
    }

    public static StateSpace ofSpelling(String s) {
        for (StateSpace sp : values()) {
            if (sp.spelling.equals(s)) {
                return sp;
            }
        }
        return null;
    }
}
