package io.ptxrun.launch;

/**
 * The SplitMix64 generator behind {@code "init": {"random": seed}}, exactly as the launch format
 * defines it (and as the hardware harness computes it): the state starts at the seed, each output
 * adds the golden gamma to the state and mixes it. All arithmetic is modulo 2^64, which is what
 * Java's {@code long} does anyway.
 */
public final class SplitMix64 {
    public static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

    private long state;

    public SplitMix64(long seed) {
        this.state = seed;
    }

    /** The next output. */
    public long next() {
        state += GOLDEN_GAMMA;
        return mix(state);
    }

    /** Output number {@code index} (0-based) of the generator seeded with {@code seed}. */
    public static long nth(long seed, long index) {
        return mix(seed + (index + 1) * GOLDEN_GAMMA);
    }

    /** The output function applied to a state value. */
    public static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
