package io.ptxrun.exec;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Little-endian loads and stores of 1, 2, 4 or 8 bytes in byte arrays (zero-extended on load).
 * Every load and store of the interpreter goes through here, so the common widths use the JIT's
 * single-instruction array views instead of a byte loop.
 */
final class Bytes {
    private Bytes() {}

    private static final VarHandle SHORTS = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    static long get(byte[] a, int off, int size) {
        return switch (size) {
            case 4 -> (int) INTS.get(a, off) & 0xffffffffL;
            case 8 -> (long) LONGS.get(a, off);
            case 2 -> (short) SHORTS.get(a, off) & 0xffffL;
            case 1 -> a[off] & 0xffL;
            default -> {
                long v = 0;
                for (int i = size - 1; i >= 0; i--) {
                    v = (v << 8) | (a[off + i] & 0xffL);
                }
                yield v;
            }
        };
    }

    static void put(byte[] a, int off, int size, long v) {
        switch (size) {
            case 4 -> INTS.set(a, off, (int) v);
            case 8 -> LONGS.set(a, off, v);
            case 2 -> SHORTS.set(a, off, (short) v);
            case 1 -> a[off] = (byte) v;
            default -> {
                for (int i = 0; i < size; i++) {
                    a[off + i] = (byte) v;
                    v >>>= 8;
                }
            }
        }
    }
}
