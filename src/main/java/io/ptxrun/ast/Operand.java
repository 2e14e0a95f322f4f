package io.ptxrun.ast;

import java.util.List;

/** Instruction operands (PTX ISA 6: registers, immediates, addresses, vectors, labels, ...). */
public sealed interface Operand extends Node
        permits Operand.Register, Operand.SpecialReg, Operand.IntImm, Operand.FloatImm, Operand.Symbol,
                Operand.Sink, Operand.Vector, Operand.Address, Operand.TensorRef, Operand.Negated,
                Operand.PredPair, Operand.ArgList, Operand.Selected, Operand.Indexed {

    /** A register declared with `.reg` in an enclosing scope (or a `.reg` parameter). */
    record Register(SourcePos pos, String name) implements Operand {}

    /**
     * A special register (10): `%tid.x`, `%laneid`, `%envreg3` (index 3). component is 'x', 'y',
     * 'z' or 0 when absent; index is -1 unless the register is numbered.
     */
    record SpecialReg(SourcePos pos, SpecialRegister register, int index, char component) implements Operand {}

    /** An integer literal, folded from a constant expression; 64-bit two's complement. */
    record IntImm(SourcePos pos, long value) implements Operand {}

    /**
     * A floating-point literal: `0f` literals are single precision (bits in the low 32 bits), `0d`
     * and decimal literals are double precision (4.5.1).
     */
    record FloatImm(SourcePos pos, long bits, boolean single) implements Operand {
        public double value() {
            return single ? Float.intBitsToFloat((int) bits) : Double.longBitsToDouble(bits);
        }
    }

    /**
     * A name that is not a register: a variable, a label, a function, a parameter; with a constant
     * byte offset (`var+4`) and the `generic(var)` form of initializers.
     */
    record Symbol(SourcePos pos, String name, long offset, boolean generic) implements Operand {}

    /** The sink `_`. */
    record Sink(SourcePos pos) implements Operand {}

    /** `{a, b, _, d}`. */
    record Vector(SourcePos pos, List<Operand> elements) implements Operand {
        public Vector {
            elements = List.copyOf(elements);
        }
    }

    /**
     * A memory address `[base+offset]`: base is a Register, a Symbol, or null for an absolute
     * address `[imm]`. suffix keeps the rare `[a].unified` form, else empty.
     */
    record Address(SourcePos pos, Operand base, long offset, String suffix) implements Operand {}

    /** A bracketed operand list: `[tmap, {c0, c1}]`, `[tex, sampler, {x, y}]`. */
    record TensorRef(SourcePos pos, List<Operand> elements) implements Operand {
        public TensorRef {
            elements = List.copyOf(elements);
        }
    }

    /** `!p` (logical) or `-r` (arithmetic, video instructions). */
    record Negated(SourcePos pos, Operand operand, boolean arithmetic) implements Operand {}

    /** `p|q`, `_|p`, `{a, b}|p`: two destinations of one instruction. */
    record PredPair(SourcePos pos, Operand first, Operand second) implements Operand {}

    /** `(a, b)`: the return and argument lists of `call`. */
    record ArgList(SourcePos pos, List<Operand> elements) implements Operand {
        public ArgList {
            elements = List.copyOf(elements);
        }
    }

    /** A register with a component or byte/half selector: `r.b0`, `r.h1`, `v.x`. */
    record Selected(SourcePos pos, Operand base, String selector) implements Operand {}

    /** An array element named by index, `A[5]` (an address in element units). */
    record Indexed(SourcePos pos, Operand base, long index) implements Operand {}
}
