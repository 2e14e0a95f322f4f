package io.ptxrun.check;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Param;
import io.ptxrun.ast.StateSpace;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.VarDecl;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The declared type of the registers visible in one block (`.reg .b32 %r<8>` declares
 * %r0..%r7), for the operand type rules. Each `{ }` block has its own table chained to the
 * enclosing one: inline assembly blocks in compiler output redeclare names such as `r0` with
 * another type.
 */
final class RegisterTable {
    private final RegisterTable parent;
    private final Map<String, DataType> single = new HashMap<>();
    /** `%r<8>`: prefix -> (count, type). */
    private final Map<String, Range> ranges = new HashMap<>();

    private record Range(int count, DataType type, int vectorWidth) {}

    /** Vector registers (`.reg .v4 .u32 v`, PTX ISA 5.4.2) -> their width; typeOf gives the element type. */
    private final Map<String, Integer> vectorWidths = new HashMap<>();

    /**
     * Names already looked up, with their type or UNDECLARED: a function names the same registers
     * many times, and resolving `%r123` against the ranges takes a substring and a parse.
     */
    private final Map<String, Object> resolved = new HashMap<>();
    private static final Object UNDECLARED = new Object();
    /** Names already looked up by vectorWidthOf, with their width. */
    private final Map<String, Integer> widths = new HashMap<>();

    private RegisterTable(RegisterTable parent) {
        this.parent = parent;
    }

    /** The registers of a nested block: its own declarations, then those of the enclosing blocks. */
    RegisterTable enter(Block block) {
        RegisterTable t = new RegisterTable(this);
        t.collect(block);
        return t;
    }

    /** The function's `.reg` parameters and the declarations of its body's outermost block. */
    static RegisterTable of(Function f) {
        RegisterTable t = new RegisterTable(null);
        for (List<Param> params : List.of(f.params(), f.results())) {
            for (Param p : params) {
                if (p.space() == StateSpace.REG) {
                    t.single.put(p.name(), p.type());
                    if (p.vectorWidth() > 1) {
                        t.vectorWidths.put(p.name(), p.vectorWidth());
                    }
                }
            }
        }
        f.body().ifPresent(t::collect);
        return t;
    }

    private void collect(Block block) {
        for (Statement s : block.statements()) {
            if (s instanceof VarDecl v && v.space() == StateSpace.REG) {
                for (VarDecl.Declarator d : v.declarators()) {
                    if (d.isRange()) {
                        ranges.put(d.name(), new Range(d.rangeCount(), v.type(), v.vectorWidth()));
                    } else {
                        single.put(d.name(), v.type());
                        if (v.vectorWidth() > 1) {
                            vectorWidths.put(d.name(), v.vectorWidth());
                        }
                    }
                }
            }
        }
    }

    /** The type of a register, or null if it is not declared (reported by DeclarationChecker). */
    DataType typeOf(String name) {
        Object known = resolved.get(name);
        if (known == null) {
            DataType own = ownTypeOf(name);
            DataType type = own != null || parent == null ? own : parent.typeOf(name);
            resolved.put(name, type == null ? UNDECLARED : type);
            return type;
        }
        return known == UNDECLARED ? null : (DataType) known;
    }

    /** 2 or 4 for a vector register, 1 for a scalar (or undeclared) one. */
    int vectorWidthOf(String name) {
        Integer known = widths.get(name);
        if (known == null) {
            known = declaredVectorWidth(name);
            widths.put(name, known);
        }
        return known;
    }

    private int declaredVectorWidth(String name) {
        if (typeOf(name) == null) {
            return 1;
        }
        for (RegisterTable t = this; t != null; t = t.parent) {
            if (t.single.containsKey(name)) {
                return t.vectorWidths.getOrDefault(name, 1);
            }
            Range r = t.rangeOf(name);
            if (r != null) {
                return Math.max(1, r.vectorWidth());
            }
        }
        return 1;
    }

    private DataType ownTypeOf(String name) {
        DataType t = single.get(name);
        if (t != null) {
            return t;
        }
        Range r = rangeOf(name);
        return r == null ? null : r.type;
    }

    /** The range `%r<N>` that declares name in this table, or null. */
    private Range rangeOf(String name) {
        if (ranges.isEmpty()) {
            return null;
        }
        int end = name.length();
        int i = end;
        while (i > 0 && name.charAt(i - 1) >= '0' && name.charAt(i - 1) <= '9') {
            i--;
        }
        if (i == end || i == 0) {
            return null;
        }
        Range r = ranges.get(name.substring(0, i));
        if (r == null) {
            return null;
        }
        try {
            return Integer.parseInt(name.substring(i)) < r.count ? r : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
