package io.ptxrun.exec;

import io.ptxrun.ast.DataType;

/**
 * Widths of register values. A register holds a value in the low bits of a long; these extend or
 * cut it to the width its type gives, as every instruction family does when it reads a narrower
 * source or writes a narrower destination.
 */
final class Bits {
    private Bits() {}

    /** The low {@code bits} of v, sign-extended. */
    static long sx(long v, int bits) {
        return bits >= 64 ? v : (v << (64 - bits)) >> (64 - bits);
    }

    /** The low {@code bits} of v, zero-extended. */
    static long zx(long v, int bits) {
        return bits >= 64 ? v : v & ((1L << bits) - 1);
    }

    /**
     * A loaded value of type {@code t} as its destination register of {@code regBits} holds it: a
     * signed load sign-extends to the register's width (`ld.s8` into a .b32 register).
     */
    static long loaded(long v, DataType t, int regBits) {
        return t.isSigned() ? signedLoad(v, t.bits, regBits) : v;
    }

    /** {@link #loaded} of a signed type of {@code typeBits} (compiled code calls it directly). */
    static long signedLoad(long v, int typeBits, int regBits) {
        return zx(sx(v, typeBits), Math.max(regBits, typeBits));
    }
}
