package io.ptxrun.launch;

import java.util.List;

/**
 * One named global-memory buffer of a launch: its element type, element count and initial
 * contents.
 */
/**
 * A global buffer of the launch. {@code uninitialized}: its contents stand for memory the program
 * has not set, as cudaMalloc leaves it: the run starts from {@code init}'s values (as the GPU
 * reference does), and the hazard detector reports a read of a byte before any thread writes it.
 */
public record BufferSpec(ElementType type, int count, BufferInit init, boolean uninitialized) {
    /** Buffers live in Java arrays; this keeps their byte size an {@code int}. */
    public static final long MAX_BYTES = Integer.MAX_VALUE - 8;

    public BufferSpec(ElementType type, int count, BufferInit init) {
        this(type, count, init, false);
    }

    /** This buffer, its contents undefined to the program ({@code uninitialized}). */
    public BufferSpec asUninitialized(boolean uninitialized) {
        return new BufferSpec(type, count, init, uninitialized);
    }

    public BufferSpec {
        if (count < 0) {
            throw new LaunchException("count", "expected a non-negative integer, got " + count);
        }
        if ((long) count * type.byteSize() > MAX_BYTES) {
            throw new LaunchException(
                    "count",
                    count + " elements of " + type + " exceed the buffer size limit of " + MAX_BYTES
                            + " bytes");
        }
        if (init instanceof BufferInit.Values values) {
            if (values.bits().size() != count) {
                throw new LaunchException(
                        "values", "has " + values.bits().size() + " elements but count is " + count);
            }
            for (int i = 0; i < count; i++) {
                if ((values.bits().get(i) & ~type.mask()) != 0) {
                    throw new LaunchException(
                            JsonPaths.index("values", i), "bits do not fit in one " + type + " element");
                }
            }
        }
        if (init instanceof BufferInit.Constant constant && (constant.bits() & ~type.mask()) != 0) {
            throw new LaunchException("init", "bits do not fit in one " + type + " element");
        }
    }

    /** A buffer given by its elements' raw bits, as {@code "values": [...]} does. */
    public static BufferSpec ofValues(ElementType type, List<Long> bits) {
        return new BufferSpec(type, bits.size(), new BufferInit.Values(bits));
    }

    public int byteSize() {
        return count * type.byteSize();
    }

    /** The raw bits of element {@code index} before the kernel runs. */
    public long initialBits(int index) {
        return init.elementBits(type, index);
    }

    /** The buffer's bytes before the kernel runs: little-endian, exactly as the harness makes them. */
    public byte[] initialContents() {
        byte[] data = new byte[byteSize()];
        for (int i = 0; i < count; i++) {
            type.store(data, i, init.elementBits(type, i));
        }
        return data;
    }
}
