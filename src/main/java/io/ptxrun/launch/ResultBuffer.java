package io.ptxrun.launch;

import java.util.Arrays;

/**
 * A buffer as a run left it: its element type (as the launch file spelt it) and its bytes,
 * little-endian. The array is not copied; treat it as read-only.
 */
public record ResultBuffer(ElementType type, byte[] contents) {
    public ResultBuffer {
        if (contents.length % type.byteSize() != 0) {
            throw new IllegalArgumentException(
                    contents.length + " bytes is not a whole number of " + type + " elements");
        }
    }

    public int count() {
        return contents.length / type.byteSize();
    }

    /** Raw bits of element {@code index}, zero-extended. */
    public long bits(int index) {
        return type.load(contents, index);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof ResultBuffer that
                && type == that.type
                && Arrays.equals(contents, that.contents);
    }

    @Override
    public int hashCode() {
        return 31 * type.hashCode() + Arrays.hashCode(contents);
    }

    @Override
    public String toString() {
        StringBuilder text =
                new StringBuilder("ResultBuffer[").append(type).append(" x ").append(count()).append(": ");
        int shown = Math.min(count(), 16);
        for (int i = 0; i < shown; i++) {
            text.append(i == 0 ? "" : ", ").append(type.format(bits(i)));
        }
        return text.append(count() > shown ? ", ...]" : "]").toString();
    }
}
