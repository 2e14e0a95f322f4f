package io.ptxrun.launch;

import java.util.List;

/**
 * How a buffer's elements start out: the launch format's {@code values}, or {@code init} as a
 * number, {@code "iota"} or {@code {"random": seed}}.
 *
 * <p>Each kind computes the raw bits of element {@code i} the way the hardware harness does with
 * numpy, so that a buffer starts out byte for byte the same here and on the GPU.
 */
public sealed interface BufferInit {

    /** The raw bits (zero-extended to 64) of element {@code index} of a buffer of {@code type}. */
    long elementBits(ElementType type, int index);

    /** Explicit {@code values}, already converted to raw element bits. */
    record Values(List<Long> bits) implements BufferInit {
        public Values {
            bits = List.copyOf(bits);
        }

        @Override
        public long elementBits(ElementType type, int index) {
            return bits.get(index);
        }
    }

    /** Every element the same: {@code "init": 0}, {@code "init": 2.5}. */
    record Constant(long bits) implements BufferInit {
        @Override
        public long elementBits(ElementType type, int index) {
            return bits;
        }
    }

    /**
     * Element {@code i} is {@code i}, converted as numpy's {@code np.arange(n).astype(dtype)} does:
     * integer types keep the low bits (so an {@code s8} buffer counts 126, 127, -128, ...), float
     * types round to nearest.
     */
    record Iota() implements BufferInit {
        @Override
        public long elementBits(ElementType type, int index) {
            return type.isFloat() ? type.bitsOf(index) : index & type.mask();
        }
    }

    /**
     * Element {@code i} comes from output {@code i} of {@link SplitMix64} seeded with {@code seed}:
     * its low bits for integer types, {@code (x >>> 40) * 2^-24} (a value in [0, 1), exact in both
     * float types) for floats.
     */
    record Random(long seed) implements BufferInit {
        @Override
        public long elementBits(ElementType type, int index) {
            long x = SplitMix64.nth(seed, index);
            return type.isFloat() ? type.bitsOf((x >>> 40) * 0x1p-24) : x & type.mask();
        }
    }
}
