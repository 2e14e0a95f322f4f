package io.ptxrun.exec;

/** Little-endian loads and stores of 1, 2, 4 or 8 bytes in byte arrays. */
final class Bytes {
    private Bytes() {}

    static long get(byte[] a, int off, int size) {
        long v = 0;
        for (int i = size - 1; i >= 0; i--) {
            v = (v << 8) | (a[off + i] & 0xffL);
        }
        return v;
    }

    static void put(byte[] a, int off, int size, long v) {
        for (int i = 0; i < size; i++) {
            a[off + i] = (byte) v;
            v >>>= 8;
        }
    }
}
