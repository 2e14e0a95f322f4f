package io.ptxrun.check;

import io.ptxrun.ast.Block;
import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Function;
import io.ptxrun.ast.Param;
import io.ptxrun.ast.StateSpace;
import io.ptxrun.ast.Statement;
import io.ptxrun.ast.VarDecl;
import java.util.HashMap;
import java.util.Map;

/**
 * The declared type of every register of one function (`.reg .b32 %r<8>` declares %r0..%r7),
 * for the operand type rules. Nested blocks are folded into one table: operand typing only
 * needs widths, and nvcc output does not redeclare a name with another width.
 */
final class RegisterTable {
    private final Map<String, DataType> single = new HashMap<>();
    /** `%r<8>`: prefix -> (count, type). */
    private final Map<String, Range> ranges = new HashMap<>();

    private record Range(int count, DataType type) {}

    static RegisterTable of(Function f) {
        RegisterTable t = new RegisterTable();
        for (Param p : f.params()) {
            if (p.space() == StateSpace.REG) {
                t.single.put(p.name(), p.type());
            }
        }
        for (Param p : f.results()) {
            if (p.space() == StateSpace.REG) {
                t.single.put(p.name(), p.type());
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
                        ranges.put(d.name(), new Range(d.rangeCount(), v.type()));
                    } else {
                        single.put(d.name(), v.type());
                    }
                }
            } else if (s instanceof Block b) {
                collect(b);
            }
        }
    }

    /** The type of a register, or null if it is not declared (reported by DeclarationChecker). */
    DataType typeOf(String name) {
        DataType t = single.get(name);
        if (t != null || ranges.isEmpty()) {
            return t;
        }
        int end = name.length();
        int i = end;
        while (i > 0 && Character.isDigit(name.charAt(i - 1))) {
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
            return Integer.parseInt(name.substring(i)) < r.count ? r.type : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
