package io.ptxrun.fuzz;

/**
 * Decisions read from a fuzzer's bytes: the fuzzer mutates the bytes, so it steers every choice a
 * structured mutation makes (which seed, which edit, where). Past the end every choice is 0, so a
 * short input still means something.
 */
final class Choices {
    private final byte[] data;
    private int at;

    Choices(byte[] data) {
        this.data = data;
    }

    /** A number in [0, bound); bound must be positive. */
    int below(int bound) {
        if (bound <= 1) {
            return 0;
        }
        int bytes = bound <= 1 << 8 ? 1 : bound <= 1 << 16 ? 2 : 4;
        long v = 0;
        for (int i = 0; i < bytes; i++) {
            v = (v << 8) | (at < data.length ? data[at++] & 0xff : 0);
        }
        return (int) (v % bound);
    }

    <T> T pick(java.util.List<T> from) {
        return from.get(below(from.size()));
    }

    boolean exhausted() {
        return at >= data.length;
    }

    /** The bytes not read yet, as text (for edits that insert arbitrary characters). */
    String rest(int max) {
        int n = Math.min(max, data.length - at);
        String s = n <= 0 ? "" : new String(data, at, n, java.nio.charset.StandardCharsets.ISO_8859_1);
        at += Math.max(0, n);
        return s;
    }
}
