package io.ptxrun.exec;

import io.ptxrun.ast.DataType;
import io.ptxrun.ast.Instruction;
import io.ptxrun.ast.Operand;
import io.ptxrun.ast.Qualifier;
import io.ptxrun.ast.StateSpace;
import io.ptxrun.exec.Decoder.Draft;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The decoding of the asynchronous copies (cp.async, the bulk and tensor copies and their
 * reductions, the groups they complete in) and of the tensor-map edits, for {@link Decoder}: an
 * instruction's operands become the op's memory accesses and its family's form ({@link
 * AsyncCopies.CopyForm}, {@link AsyncCopies.BulkForm}, {@link AsyncCopies.TensorForm}, {@link
 * TensorMapEdits.ReplaceForm}...). Apart from the rest of the decoder because these forms are long
 * and concern only {@link AsyncCopies} and {@link TensorMapEdits}.
 */
final class CopyDecoding {
    /** The function being decoded: its symbols, registers and address operands. */
    private final Decoder.FunctionDecoder d;

    CopyDecoding(Decoder.FunctionDecoder d) {
        this.d = d;
    }

    /** The op of an async copy, group step or tensor-map edit; null for a form the engine does not run. */
    Draft build(Instruction i) {
        List<Operand> os = i.operands();
        switch (i.opcode()) {
            case CP_ASYNC: {
                if (i.has(Qualifier.BULK) || i.has(Qualifier.TENSOR)) {
                    return null;
                }
                // Lands asynchronously (AsyncCopies), by its group's wait at the latest.
                Draft op = new Draft(OpCode.CP_ASYNC, i, d.address(Space.SHARED, os.get(0)));
                op.type = DataType.B8;
                MemoryAccess source = d.address(Space.GLOBAL, os.get(1));
                List<Operand> rest = new ArrayList<>(os.subList(2, os.size()));
                if (i.has(Qualifier.L2_CACHE_HINT) && rest.size() > 1) {
                    rest.remove(rest.size() - 1);
                }
                // A predicate third operand is ignore-src (copy nothing, fill zeros).
                boolean ignoreSource = false;
                if (rest.size() > 1) {
                    Operand last = rest.get(1);
                    Operand base = last instanceof Operand.Negated n ? n.operand() : last;
                    Decoder.Sym sym = base instanceof Operand.Register r ? d.lookup(r.name()) : null;
                    ignoreSource = sym != null && sym.kind() == Decoder.SymKind.REG && sym.bits() == 1;
                }
                d.srcs(op, DataType.U32, rest);
                op.form = new AsyncCopies.CopyForm(source, ignoreSource);
                return op;
            }
            case CP_ASYNC_BULK:
            case CP_REDUCE_ASYNC_BULK: {
                // Lands asynchronously (AsyncCopies), then signals complete_tx on the mbarrier if one is named.
                List<StateSpace> sp = i.spaces();
                if (sp.size() < 2) {
                    return null;
                }
                io.ptxrun.exec.copy.ReductionOp redOp = null;
                io.ptxrun.exec.copy.ReductionType redType = null;
                if (i.opcode() == io.ptxrun.ast.Opcode.CP_REDUCE_ASYNC_BULK) {
                    redOp = reductionOp(i);
                    redType = reductionType(i);
                    if (redOp == null || redType == null) {
                        return null;
                    }
                }
                Draft op = new Draft(OpCode.CP_ASYNC_BULK, i, d.address(d.space(sp.get(0)), os.get(0)));
                op.type = DataType.B8;
                MemoryAccess source = d.address(d.space(sp.get(1)), os.get(1));
                List<Operand> rest = new ArrayList<>(os.subList(2, 3));
                int next = 3;
                MemoryAccess barrier = null;
                if (os.size() > 3 && os.get(3) instanceof Operand.Address) {
                    barrier = d.address(Space.SHARED, os.get(3));
                    next = 4;
                }
                // .multicast::cluster: the ctaMask follows (a cache policy may follow it).
                boolean multicast = i.has(Qualifier.MULTICAST_CLUSTER);
                if (multicast && os.size() > next) {
                    rest.add(os.get(next));
                }
                d.srcs(op, DataType.U32, rest);
                op.form = new AsyncCopies.BulkForm(source, barrier, redOp, redType, multicast);
                return op;
            }
            case ST_ASYNC:
            case RED_ASYNC:
                return storeAsync(i, os);
            case CP_ASYNC_BULK_TENSOR:
            case CP_REDUCE_ASYNC_BULK_TENSOR:
            case CP_ASYNC_BULK_PREFETCH_TENSOR:
                return tensorCopy(i, os);
            case CP_ASYNC_BULK_COMMIT_GROUP:
            case CP_ASYNC_BULK_WAIT_GROUP:
            case CP_ASYNC_COMMIT_GROUP:
            case CP_ASYNC_WAIT_GROUP:
            case CP_ASYNC_WAIT_ALL: {
                Draft op = new Draft(OpCode.ASYNC_GROUP, i);
                op.type = DataType.U32;
                op.form = switch (i.opcode()) {
                    case CP_ASYNC_COMMIT_GROUP -> AsyncCopies.GroupStep.COMMIT;
                    case CP_ASYNC_WAIT_GROUP -> AsyncCopies.GroupStep.WAIT;
                    case CP_ASYNC_WAIT_ALL -> AsyncCopies.GroupStep.WAIT_ALL;
                    case CP_ASYNC_BULK_COMMIT_GROUP -> AsyncCopies.GroupStep.BULK_COMMIT;
                    default -> AsyncCopies.GroupStep.BULK_WAIT;
                };
                d.srcs(op, DataType.U32, os);
                return op;
            }
            case TENSORMAP_REPLACE:
                return tensorMapReplace(i, os);
            case TENSORMAP_CP_FENCEPROXY: {
                Draft op = new Draft(OpCode.TENSORMAP_COPY, i, d.address(Space.GLOBAL, os.get(0)));
                op.form = new TensorMapEdits.CopyForm(d.address(Space.SHARED, os.get(1)));
                return op;
            }
            default:
                throw new IllegalArgumentException("not an async copy: " + i.mnemonic());
        }
    }

    /** The reduction operation the first of the instruction's qualifiers that names one names, or null. */
    private static io.ptxrun.exec.copy.ReductionOp reductionOp(Instruction i) {
        return firstNamed(i, io.ptxrun.exec.copy.ReductionOp::fromPtx);
    }

    /** The reduction type the first of the instruction's qualifiers that names one names, or null. */
    private static io.ptxrun.exec.copy.ReductionType reductionType(Instruction i) {
        return firstNamed(i, io.ptxrun.exec.copy.ReductionType::fromPtx);
    }

    /** What {@code named} makes of the first of the instruction's qualifiers it names something by, or null. */
    private static <T> T firstNamed(Instruction i, java.util.function.Function<String, T> named) {
        for (io.ptxrun.ast.Qual q : i.qualifiers()) {
            T t = named.apply(q.text());
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    /**
     * st.async / red.async with .mbarrier::complete_tx::bytes (9.7.9.12, 9.7.13.8): the destination
     * address, the value (one register or a .v2 / .v4 vector) as sources, the mbarrier; for
     * red.async the reduction's operation and type. Without .ss both addresses are generic. The
     * .release .global forms (sm_100, no mbarrier) are not run.
     */
    private Draft storeAsync(Instruction i, List<Operand> os) {
        if (i.has(Qualifier.RELEASE) || os.size() != 3 || !(os.get(2) instanceof Operand.Address)) {
            return null;
        }
        Space space = i.spaces().isEmpty() ? Space.GENERIC : d.space(i.spaces().get(0));
        if (space != Space.GENERIC && space != Space.SHARED) {
            return null;
        }
        io.ptxrun.exec.copy.ReductionOp redOp = null;
        io.ptxrun.exec.copy.ReductionType redType = null;
        if (i.opcode() == io.ptxrun.ast.Opcode.RED_ASYNC) {
            redOp = reductionOp(i);
            redType = reductionType(i);
            if (redOp == null || redType == null) {
                return null;
            }
        }
        DataType t = i.type();
        Draft op = new Draft(OpCode.ST_ASYNC, i, d.address(space, os.get(0)));
        op.type = t;
        List<Operand> values = os.get(1) instanceof Operand.Vector v ? v.elements() : List.of(os.get(1));
        d.srcs(op, t, values);
        op.form = new AsyncCopies.StoreForm(d.address(space, os.get(2)), redOp, redType, values.size(), t.bytes());
        return op;
    }

    /**
     * A tensor copy (9.7.9.25.5.2-4): sources are the tensor-map address, the coordinates
     * (five for .tile::gather4 / .tile::scatter4, otherwise one per dimension), the im2col
     * operands ({offW, offH, offD} for .im2col, {wHalo, wOffset} for .im2col::w(::128)), then
     * (multicast loads) the ctaMask; the address operand is the shared side.
     */
    private Draft tensorCopy(Instruction i, List<Operand> os) {
        int dimensions = i.first(Qualifier.Category.DIM).map(q -> q.kind().dimensions()).orElse(0);
        io.ptxrun.exec.copy.LoadMode loadMode = i.first(Qualifier.Category.LOAD_MODE).map(q -> switch (q.kind()) {
            case TILE_GATHER4, TILE_SCATTER4 -> io.ptxrun.exec.copy.LoadMode.TILE_GATHER4;
            case IM2COL -> io.ptxrun.exec.copy.LoadMode.IM2COL;
            case IM2COL_W -> io.ptxrun.exec.copy.LoadMode.IM2COL_W;
            case IM2COL_W_128 -> io.ptxrun.exec.copy.LoadMode.IM2COL_W_128;
            case IM2COL_NO_OFFS -> io.ptxrun.exec.copy.LoadMode.IM2COL_NO_OFFS;
            default -> io.ptxrun.exec.copy.LoadMode.TILE;
        }).orElse(io.ptxrun.exec.copy.LoadMode.TILE);
        AsyncCopies.TensorForm.Direction direction;
        MemoryAccess shared = MemoryAccess.NONE;
        MemoryAccess barrier = null;
        int ref;
        int next;
        if (i.opcode() == io.ptxrun.ast.Opcode.CP_ASYNC_BULK_PREFETCH_TENSOR) {
            direction = AsyncCopies.TensorForm.Direction.PREFETCH;
            ref = 0;
            next = 1;
        } else if (!i.spaces().isEmpty() && i.spaces().get(0) == StateSpace.GLOBAL) {
            direction = AsyncCopies.TensorForm.Direction.STORE;
            ref = 0;
            next = 2;
            shared = d.address(Space.SHARED, os.get(1));
        } else {
            direction = AsyncCopies.TensorForm.Direction.LOAD;
            ref = 1;
            next = 2;
            shared = d.address(Space.SHARED, os.get(0));
            if (os.size() > 2 && os.get(2) instanceof Operand.Address) {
                barrier = d.address(Space.SHARED, os.get(2));
                next = 3;
            }
        }
        Draft op = new Draft(OpCode.CP_ASYNC_BULK_TENSOR, i, shared);
        op.type = DataType.B8;
        io.ptxrun.exec.copy.ReductionOp redOp = null;
        if (i.opcode() == io.ptxrun.ast.Opcode.CP_REDUCE_ASYNC_BULK_TENSOR) {
            redOp = reductionOp(i);
            if (redOp == null) {
                return null;
            }
        }
        if (!(os.get(ref) instanceof Operand.TensorRef tr) || tr.elements().size() != 2
                || !(tr.elements().get(1) instanceof Operand.Vector coords)) {
            throw new Decoder.DecodeError(i.pos(), "expected [tensorMap, {coordinates}]");
        }
        List<Operand> sources = new ArrayList<>();
        sources.add(tr.elements().get(0));
        sources.addAll(coords.elements());
        int im2colInfo = 0;
        if (loadMode.hasIm2colInfo() && direction != AsyncCopies.TensorForm.Direction.STORE) {
            if (os.size() <= next || !(os.get(next) instanceof Operand.Vector info)) {
                throw new Decoder.DecodeError(i.pos(), "load mode " + loadMode.ptxName()
                        + " needs the im2colInfo vector operand");
            }
            im2colInfo = info.elements().size();
            sources.addAll(info.elements());
            next++;
        }
        boolean multicast = i.has(Qualifier.MULTICAST_CLUSTER);
        if (multicast) {
            if (os.size() <= next) {
                throw new Decoder.DecodeError(i.pos(), ".multicast::cluster needs a ctaMask operand");
            }
            sources.add(os.get(next));
        }
        d.srcs(op, DataType.U64, sources);
        op.form = new AsyncCopies.TensorForm(direction, loadMode, dimensions, coords.elements().size(), im2colInfo,
                barrier, redOp, i.has(Qualifier.CTA_GROUP_2), multicast);
        return op;
    }

    /**
     * tensormap.replace.tile.field{.ss}.b1024.type [addr], {ord,} new_val: the field is parsed
     * once into a {@link TensorMapField}; the ordinal must be an immediate below the rank bound.
     */
    private Draft tensorMapReplace(Instruction i, List<Operand> os) {
        TensorMapField field = i.qualifiers().stream()
                .map(q -> TensorMapField.of(q.text()))
                .flatMap(Optional::stream)
                .findFirst()
                .orElseThrow(() -> new Decoder.DecodeError(i.pos(), "tensormap.replace names no field it can replace"));
        Draft op = new Draft(OpCode.TENSORMAP_REPLACE, i,
                d.address(i.spaces().isEmpty() ? Space.GENERIC : d.space(i.spaces().get(0)), os.get(0)));
        op.type = field == TensorMapField.GLOBAL_ADDRESS
                || field == TensorMapField.GLOBAL_STRIDE ? DataType.B64 : DataType.B32;
        int ordinal = 0;
        if (field.ordinal) {
            if (os.size() != 3 || !(os.get(1) instanceof Operand.IntImm ord)) {
                throw new Decoder.DecodeError(i.pos(), "tensormap.replace" + field.spelling
                        + " needs [addr], ord, new_val with an immediate ord");
            }
            if (ord.value() < 0 || ord.value() >= TensorMapField.MAX_ORDINAL) {
                throw new Decoder.DecodeError(i.pos(), "tensormap.replace ordinal " + ord.value() + " is outside [0, "
                        + TensorMapField.MAX_ORDINAL + ")");
            }
            ordinal = (int) ord.value();
            d.srcs(op, op.type, os.get(2));
        } else {
            d.srcs(op, op.type, os.get(os.size() - 1));
        }
        op.form = new TensorMapEdits.ReplaceForm(field, ordinal);
        return op;
    }
}
