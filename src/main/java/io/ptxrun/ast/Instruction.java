package io.ptxrun.ast;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * One instruction: optional guard, opcode, qualifiers in source order (classified), operands.
 * The accessors below give the classified view that validation and decoding read.
 */
public record Instruction(SourcePos pos, Guard guard, Opcode opcode, List<Qual> qualifiers,
                          List<Operand> operands) implements Statement {
    public Instruction {
        qualifiers = List.copyOf(qualifiers);
        operands = List.copyOf(operands);
    }

    public boolean has(Qualifier q) {
        for (Qual x : qualifiers) {
            if (x.kind() == q) {
                return true;
            }
        }
        return false;
    }

    // The lookups below are loops, not streams: checking calls them for every instruction, and a
    // short check runs them in the interpreter, where a stream costs tens of calls per element.

    public Optional<Qual> find(Qualifier q) {
        for (Qual x : qualifiers) {
            if (x.kind() == q) {
                return Optional.of(x);
            }
        }
        return Optional.empty();
    }

    /** The first qualifier of a category, if any. */
    public Optional<Qual> first(Qualifier.Category c) {
        for (Qual x : qualifiers) {
            if (x.kind().category == c) {
                return Optional.of(x);
            }
        }
        return Optional.empty();
    }

    public List<Qual> all(Qualifier.Category c) {
        List<Qual> out = new ArrayList<>(2);
        for (Qual x : qualifiers) {
            if (x.kind().category == c) {
                out.add(x);
            }
        }
        return List.copyOf(out);
    }

    /** The state space named (the first one: `cp.async.shared.global` has two). */
    public StateSpace space() {
        return first(Qualifier.Category.SPACE).map(q -> q.kind().space()).orElse(StateSpace.GENERIC);
    }

    public List<StateSpace> spaces() {
        return all(Qualifier.Category.SPACE).stream().map(q -> q.kind().space()).toList();
    }

    public Optional<Qualifier> scope() {
        return first(Qualifier.Category.SCOPE).map(Qual::kind);
    }

    public Optional<Qualifier> sem() {
        return first(Qualifier.Category.SEM).map(Qual::kind);
    }

    /**
     * Type qualifiers in order: `cvt.f32.s32` gives [F32, S32]. Sub-byte element types (`.s4`,
     * `.b1`) name no register type and are left out.
     */
    public List<DataType> types() {
        List<DataType> out = new ArrayList<>(2);
        for (Qual q : qualifiers) {
            if (q.kind().category == Qualifier.Category.TYPE && q.kind().dataType() != null) {
                out.add(q.kind().dataType());
            }
        }
        return out;
    }

    /** The last type qualifier (the operation type of most instructions), or null. */
    public DataType type() {
        List<DataType> t = types();
        return t.isEmpty() ? null : t.get(t.size() - 1);
    }

    public int vectorWidth() {
        return first(Qualifier.Category.VECTOR).map(q -> q.kind().vectorWidth()).orElse(1);
    }

    /** The full mnemonic as written, e.g. `mbarrier.try_wait.parity.shared::cta.b64`. */
    public String mnemonic() {
        StringBuilder sb = new StringBuilder(opcode.spelling);
        for (Qual q : qualifiers) {
            sb.append(q.text());
        }
        return sb.toString();
    }
}
