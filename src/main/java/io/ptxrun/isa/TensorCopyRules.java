package io.ptxrun.isa;

import static io.ptxrun.ast.Opcode.CP_ASYNC_BULK_PREFETCH_TENSOR;
import static io.ptxrun.ast.Opcode.CP_ASYNC_BULK_TENSOR;
import static io.ptxrun.ast.Opcode.CP_REDUCE_ASYNC_BULK_TENSOR;
import static io.ptxrun.isa.TargetRequirement.atLeast;

import io.ptxrun.ast.Opcode;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Tensor copies (PTX ISA 9.7.9.25.5): cp.async.bulk.tensor, cp.reduce.async.bulk.tensor and
 * cp.async.bulk.prefetch.tensor. The shape of the operands follows from `.dim` and the load mode
 * (the tensorCoords and im2colInfo tables of 9.7.9.25.5.2), so the forms are generated from the
 * {@link #LOAD_MODES} and {@link #STORE_MODES} rows, one form per dimension and operand variant.
 * `.tile::scatter4` and `.im2col_no_offs` are store modes (shared -> global): ptxas accepts
 * `.im2col_no_offs` only that way, and `.tile::scatter4` on the sm_100a family from PTX ISA 8.6.
 */
public final class TensorCopyRules implements RuleTable {
    private static final String TENSOR = "9.7.9.25.5.2 cp.async.bulk.tensor";
    private static final String REDUCE = "9.7.9.25.5.3 cp.reduce.async.bulk.tensor";
    private static final String PREFETCH = "9.7.9.25.5.4 cp.async.bulk.prefetch.tensor";
    private static final String MBAR = ".mbarrier::complete_tx::bytes";
    private static final String POLICY = "cache-policy:b64|imm";

    /**
     * One load mode: its qualifier (`[.tile]`: the default, may be omitted), the dimensions it
     * allows ("the tensor has to be at least 3-dimensional" for im2col; gather4 is 2d), the number
     * of coordinates (-1: one per dimension) and of im2colInfo elements (-1: dimensions - 2).
     */
    record Mode(String qualifier, int minDim, int maxDim, int coordinates, int im2colInfo) {
        int coordinatesFor(int dim) {
            return coordinates < 0 ? dim : coordinates;
        }

        int infoFor(int dim) {
            return im2colInfo < 0 ? dim - 2 : im2colInfo;
        }
    }

    static final List<Mode> LOAD_MODES = List.of(
            new Mode("[.tile]", 1, 5, -1, 0),
            new Mode(".tile::gather4", 2, 2, 5, 0),
            new Mode(".im2col", 3, 5, -1, -1),
            new Mode(".im2col::w", 3, 5, -1, 2),
            new Mode(".im2col::w::128", 3, 5, -1, 2));

    static final List<Mode> STORE_MODES = List.of(
            new Mode("[.tile]", 1, 5, -1, 0),
            new Mode(".tile::scatter4", 2, 2, 5, 0),
            new Mode(".im2col_no_offs", 3, 5, -1, 0));

    /** redOp of cp.reduce.async.bulk.tensor (the element type comes from the tensor map). */
    private static final String RED_OPS = "(.add|.min|.max|.inc|.dec|.and|.or|.xor)";

    /**
     * Where the architecture-specific tensor features exist: sm_100a, sm_101a (renamed sm_110a),
     * and from PTX ISA 8.8 the sm_100f and sm_110f families (Target ISA Notes of 9.7.9.25.5.2).
     */
    static final TargetRequirement SM100_FAMILY = new TargetRequirement.ArchSpecific(
            Set.of(100, 101, 110), Set.of(100, 110), PtxVersion.of("8.8"));

    @Override
    public Set<Opcode> opcodes() {
        return EnumSet.of(Opcode.CP_ASYNC_BULK_TENSOR, Opcode.CP_ASYNC_BULK_PREFETCH_TENSOR,
                Opcode.CP_REDUCE_ASYNC_BULK_TENSOR);
    }

    @Override
    public List<Form> forms() {
        List<Form> f = new ArrayList<>();
        String sharedCtaDst = "cp.async.bulk.tensor with destination state space .shared::cta";
        for (Mode mode : LOAD_MODES) {
            for (int dim = mode.minDim(); dim <= mode.maxDim(); dim++) {
                String tensor = "tensor:tensor=" + mode.coordinatesFor(dim);
                String info = mode.infoFor(dim) > 0 ? ", im2colInfo:vec16=" + mode.infoFor(dim) : "";
                String head = "." + dim + "d";
                String ctaGroup = " [.cta_group::1|.cta_group::2]";
                String toCluster = head + " .shared::cluster .global " + mode.qualifier() + " " + MBAR + ctaGroup;
                String ops = "dstMem:addr, " + tensor + ", mbar:addr" + info;
                f.add(Form.of(CP_ASYNC_BULK_TENSOR, toCluster, ops, TENSOR));
                f.add(Form.of(CP_ASYNC_BULK_TENSOR, toCluster + " .multicast::cluster", ops + ", ctaMask:b16|imm", TENSOR));
                f.add(Form.of(CP_ASYNC_BULK_TENSOR, toCluster + " .L2::cache_hint", ops + ", " + POLICY, TENSOR));
                f.add(Form.of(CP_ASYNC_BULK_TENSOR, toCluster + " .multicast::cluster .L2::cache_hint",
                        ops + ", ctaMask:b16|imm, " + POLICY, TENSOR));
                String toCta = head + " .shared::cta .global " + mode.qualifier() + " " + MBAR + ctaGroup;
                f.add(Form.of(CP_ASYNC_BULK_TENSOR, toCta, ops, TENSOR).since("8.6", sharedCtaDst));
                f.add(Form.of(CP_ASYNC_BULK_TENSOR, toCta + " .L2::cache_hint", ops + ", " + POLICY, TENSOR)
                        .since("8.6", sharedCtaDst));

                String prefetch = head + " .L2 .global " + mode.qualifier();
                f.add(Form.of(CP_ASYNC_BULK_PREFETCH_TENSOR, prefetch, tensor + info, PREFETCH));
                f.add(Form.of(CP_ASYNC_BULK_PREFETCH_TENSOR, prefetch + " .L2::cache_hint",
                        tensor + info + ", " + POLICY, PREFETCH));
            }
        }
        for (Mode mode : STORE_MODES) {
            for (int dim = mode.minDim(); dim <= mode.maxDim(); dim++) {
                String ops = "tensor:tensor=" + mode.coordinatesFor(dim) + ", srcMem:addr";
                String store = "." + dim + "d .global .shared::cta " + mode.qualifier() + " .bulk_group";
                f.add(Form.of(CP_ASYNC_BULK_TENSOR, store, ops, TENSOR));
                f.add(Form.of(CP_ASYNC_BULK_TENSOR, store + " .L2::cache_hint", ops + ", " + POLICY, TENSOR));
                f.add(Form.of(CP_REDUCE_ASYNC_BULK_TENSOR, store + " " + RED_OPS, ops, REDUCE));
                f.add(Form.of(CP_REDUCE_ASYNC_BULK_TENSOR, store + " " + RED_OPS + " .L2::cache_hint",
                        ops + ", " + POLICY, REDUCE));
            }
        }
        return f;
    }

    @Override
    public List<FeatureRule> features() {
        TargetRequirement sm90 = atLeast(90);
        String notes = ", PTX ISA / Target ISA Notes";
        List<FeatureRule> r = new ArrayList<>(List.of(
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, "", "8.0", sm90, "cp.async.bulk.tensor", TENSOR + notes),
                FeatureRule.of(CP_REDUCE_ASYNC_BULK_TENSOR, "", "8.0", sm90, "cp.reduce.async.bulk.tensor", REDUCE + notes),
                FeatureRule.of(CP_ASYNC_BULK_PREFETCH_TENSOR, "", "8.0", sm90, "cp.async.bulk.prefetch.tensor",
                        PREFETCH + notes),
                // gather4 and im2col::w: architecture-specific into .shared::cluster, sm_100+ into .shared::cta.
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, ".tile::gather4 .shared::cluster", "8.6", SM100_FAMILY,
                        "'.tile::gather4' with destination .shared::cluster", TENSOR + notes),
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, ".tile::gather4 .shared::cta", "8.6", atLeast(100),
                        "'.tile::gather4' with destination .shared::cta", TENSOR + notes),
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, ".im2col::w .shared::cluster", "8.6", SM100_FAMILY,
                        "'.im2col::w' with destination .shared::cluster", TENSOR + notes),
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, ".im2col::w .shared::cta", "8.6", atLeast(100),
                        "'.im2col::w' with destination .shared::cta", TENSOR + notes),
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, ".im2col::w::128", "8.6", SM100_FAMILY, "'.im2col::w::128'",
                        TENSOR + notes),
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, ".tile::scatter4", "8.6", SM100_FAMILY, "'.tile::scatter4'",
                        TENSOR + notes),
                FeatureRule.of(CP_REDUCE_ASYNC_BULK_TENSOR, ".tile::scatter4", "8.6", SM100_FAMILY, "'.tile::scatter4'",
                        REDUCE + notes),
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, ".cta_group::1", "8.6", SM100_FAMILY, "'.cta_group::1'", TENSOR + notes),
                FeatureRule.of(CP_ASYNC_BULK_TENSOR, ".cta_group::2", "8.6", SM100_FAMILY, "'.cta_group::2'", TENSOR + notes)));
        for (String q : List.of(".tile::gather4", ".im2col::w", ".im2col::w::128")) {
            r.add(FeatureRule.of(CP_ASYNC_BULK_PREFETCH_TENSOR, q, "8.6", SM100_FAMILY, "'" + q + "' on "
                    + "cp.async.bulk.prefetch.tensor", PREFETCH + notes));
        }
        return r;
    }
}
