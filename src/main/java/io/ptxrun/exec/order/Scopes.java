package io.ptxrun.exec.order;

/**
 * The scope of a strong access or a fence (PTX ISA, memory consistency model: scope; "morally
 * strong"): the set of threads it synchronizes with directly. Two strong accesses to the same
 * location are morally strong relative to each other only when each one's scope includes the
 * other's thread; otherwise they race like plain accesses, and a release and an acquire through
 * them order nothing. A single GPU's .sys is its .gpu. Codes grow as scopes narrow, so that the
 * common, widest one is 0 (an epoch's scope bits stay clear for it).
 */
public final class Scopes {
    /** .gpu, .sys, or none given (the default of atomics, ordered ld/st and fences). */
    public static final int GPU = 0;
    /** .cluster: the threads of the CTAs of one cluster. */
    public static final int CLUSTER = 1;
    /** .cta: the threads of one CTA. */
    public static final int CTA = 2;

    private Scopes() {}

    /** The narrower of two scopes. */
    static int narrower(int a, int b) {
        return Math.max(a, b);
    }

    /** Its PTX qualifier. */
    public static String name(int scope) {
        return switch (scope) {
            case CTA -> ".cta";
            case CLUSTER -> ".cluster";
            default -> ".gpu";
        };
    }
}
