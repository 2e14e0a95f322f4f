package io.ptxrun.exec.copy;

import static io.ptxrun.exec.copy.ReductionOp.ADD;
import static io.ptxrun.exec.copy.ReductionOp.AND;
import static io.ptxrun.exec.copy.ReductionOp.DEC;
import static io.ptxrun.exec.copy.ReductionOp.INC;
import static io.ptxrun.exec.copy.ReductionOp.MAX;
import static io.ptxrun.exec.copy.ReductionOp.MIN;
import static io.ptxrun.exec.copy.ReductionOp.OR;
import static io.ptxrun.exec.copy.ReductionOp.XOR;
import static io.ptxrun.exec.copy.ReductionType.B32;
import static io.ptxrun.exec.copy.ReductionType.B64;
import static io.ptxrun.exec.copy.ReductionType.BF16;
import static io.ptxrun.exec.copy.ReductionType.F16;
import static io.ptxrun.exec.copy.ReductionType.F32;
import static io.ptxrun.exec.copy.ReductionType.F64;
import static io.ptxrun.exec.copy.ReductionType.S32;
import static io.ptxrun.exec.copy.ReductionType.S64;
import static io.ptxrun.exec.copy.ReductionType.U32;
import static io.ptxrun.exec.copy.ReductionType.U64;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Which {@code .redOp} / {@code .type} pairs each bulk reduction accepts: the tables of PTX ISA
 * 9.7.9.25.4.2 ({@code cp.reduce.async.bulk}, one per destination) and 9.7.9.25.5.3
 * ({@code cp.reduce.async.bulk.tensor}), transcribed row by row. {@code .noftz} is a separate
 * flag: it is required on {@code add.f16} / {@code add.bf16} and allowed nowhere else.
 */
public final class ReductionRules {

    /** Where the reduced elements live, which decides the table. */
    public enum Destination {
        /** {@code cp.reduce.async.bulk.shared::cluster.shared::cta}: 9.7.9.25.4.2. */
        SHARED_CLUSTER("9.7.9.25.4.2"),
        /** {@code cp.reduce.async.bulk.global.shared::cta}: 9.7.9.25.4.2. */
        GLOBAL("9.7.9.25.4.2"),
        /** {@code cp.reduce.async.bulk.tensor.global.shared::cta}: 9.7.9.25.5.3. */
        TENSOR_GLOBAL("9.7.9.25.5.3");

        private final String section;

        Destination(String section) {
            this.section = section;
        }

        /** The PTX ISA section whose table this is. */
        public String section() {
            return section;
        }
    }

    /** One row of a table: {@code op} is allowed on each of {@code types}. */
    public record Row(Destination destination, ReductionOp op, Set<ReductionType> types) {
        public Row {
            types = Set.copyOf(types);
        }
    }

    private static final List<Row> ROWS =
            List.of(
                    row(Destination.SHARED_CLUSTER, ADD, U32, S32, U64),
                    row(Destination.SHARED_CLUSTER, MIN, U32, S32),
                    row(Destination.SHARED_CLUSTER, MAX, U32, S32),
                    row(Destination.SHARED_CLUSTER, INC, U32),
                    row(Destination.SHARED_CLUSTER, DEC, U32),
                    row(Destination.SHARED_CLUSTER, AND, B32),
                    row(Destination.SHARED_CLUSTER, OR, B32),
                    row(Destination.SHARED_CLUSTER, XOR, B32),
                    row(Destination.GLOBAL, ADD, U32, S32, U64, F32, F64, F16, BF16),
                    row(Destination.GLOBAL, MIN, U32, S32, U64, S64, F16, BF16),
                    row(Destination.GLOBAL, MAX, U32, S32, U64, S64, F16, BF16),
                    row(Destination.GLOBAL, INC, U32),
                    row(Destination.GLOBAL, DEC, U32),
                    row(Destination.GLOBAL, AND, B32, B64),
                    row(Destination.GLOBAL, OR, B32, B64),
                    row(Destination.GLOBAL, XOR, B32, B64),
                    // The tensor table has no f64 add, unlike the plain global one.
                    row(Destination.TENSOR_GLOBAL, ADD, U32, S32, U64, F32, F16, BF16),
                    row(Destination.TENSOR_GLOBAL, MIN, U32, S32, U64, S64, F16, BF16),
                    row(Destination.TENSOR_GLOBAL, MAX, U32, S32, U64, S64, F16, BF16),
                    row(Destination.TENSOR_GLOBAL, INC, U32),
                    row(Destination.TENSOR_GLOBAL, DEC, U32),
                    row(Destination.TENSOR_GLOBAL, AND, B32, B64),
                    row(Destination.TENSOR_GLOBAL, OR, B32, B64),
                    row(Destination.TENSOR_GLOBAL, XOR, B32, B64));

    private ReductionRules() {}

    private static Row row(Destination destination, ReductionOp op, ReductionType... types) {
        return new Row(destination, op, EnumSet.of(types[0], types));
    }

    /** Every row, in the spec's order. */
    public static List<Row> rows() {
        return ROWS;
    }

    /** Whether the spec table for {@code destination} lists {@code type} under {@code op}. */
    public static boolean allowed(Destination destination, ReductionOp op, ReductionType type) {
        for (Row row : ROWS) {
            if (row.destination() == destination && row.op() == op) {
                return row.types().contains(type);
            }
        }
        return false;
    }

    /**
     * {@code .noftz}: required with {@code add.f16} / {@code add.bf16} (global destination only),
     * allowed nowhere else.
     */
    public static boolean needsNoftz(ReductionOp op, ReductionType type) {
        return op == ADD && (type == F16 || type == BF16);
    }

    /**
     * Null when the combination is valid, else why not, naming the section, for a checker to
     * report.
     */
    public static String problem(
            Destination destination, ReductionOp op, ReductionType type, boolean noftz) {
        if (!allowed(destination, op, type)) {
            return "." + op + "." + type + " is not a valid reduction for this destination (PTX ISA "
                    + destination.section() + ")";
        }
        // The tensor form has no .noftz qualifier at all (9.7.9.25.5.3 syntax).
        boolean required = destination == Destination.GLOBAL && needsNoftz(op, type);
        if (required != noftz) {
            return required
                    ? ".add." + type + " requires .noftz (PTX ISA 9.7.9.25.4.2)"
                    : ".noftz is only allowed with .add.f16 and .add.bf16 (PTX ISA 9.7.9.25.4.2)";
        }
        return null;
    }
}
