package io.ptxrun.exec.copy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ptxrun.launch.Dim3;
import io.ptxrun.launch.ElementType;
import io.ptxrun.launch.TensorMap;
import io.ptxrun.launch.TensorMap.Interleave;
import io.ptxrun.launch.TensorMap.L2Promotion;
import io.ptxrun.launch.TensorMap.OobFill;
import io.ptxrun.launch.TensorMap.Swizzle;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per rule of the reductions, the tensor-copy plans and the cluster geometry. */
class CopyRulesTest {

    private static long combine(ReductionOp op, ReductionType type, long old, long value) {
        return BulkReduction.combine(op, type, old, value);
    }

    @Test
    void incAndDecWrapAsTheHardwareDoes() {
        assertEquals(0, combine(ReductionOp.INC, ReductionType.U32, 5, 5));
        assertEquals(4, combine(ReductionOp.INC, ReductionType.U32, 3, 5));
        assertEquals(5, combine(ReductionOp.DEC, ReductionType.U32, 0, 5));
        assertEquals(5, combine(ReductionOp.DEC, ReductionType.U32, 9, 5));
        assertEquals(2, combine(ReductionOp.DEC, ReductionType.U32, 3, 5));
    }

    @Test
    void signedAndUnsignedMinimaDiffer() {
        assertEquals(0xffffffffL, combine(ReductionOp.MIN, ReductionType.S32, 0xffffffffL, 1));
        assertEquals(1, combine(ReductionOp.MIN, ReductionType.U32, 0xffffffffL, 1));
        assertEquals(-1L, combine(ReductionOp.MAX, ReductionType.U64, -1L, 1));
        assertEquals(1, combine(ReductionOp.MAX, ReductionType.S64, -1L, 1));
    }

    @Test
    void floatAddKeepsSubnormalsAndCanonicalisesNaN() {
        assertEquals(0x000116c2L, combine(ReductionOp.ADD, ReductionType.F32, 0x000116c2L, 0));
        assertEquals(0x7fffffffL, combine(ReductionOp.ADD, ReductionType.F32, 0x7f800000L, 0xff800000L));
        assertEquals(0xfff8000000000000L,
                combine(ReductionOp.ADD, ReductionType.F64, 0x7ff0000000000000L, 0xfff0000000000000L));
    }

    @Test
    void halfAddRoundsToNearestEvenAndKeepsSubnormals() {
        // 1 + 2^-11 is a tie between 1 and 1 + 2^-10: even is 1.
        assertEquals(0x3c00, combine(ReductionOp.ADD, ReductionType.F16, 0x3c00, 0x1000));
        assertEquals(0x0002, combine(ReductionOp.ADD, ReductionType.F16, 0x0001, 0x0001));
        assertEquals(0x7c00, combine(ReductionOp.ADD, ReductionType.F16, 0x7bff, 0x7bff));
        assertEquals(0x7fff, combine(ReductionOp.ADD, ReductionType.BF16, 0x7fc0, 0x3f80));
        assertEquals(0x4000, combine(ReductionOp.ADD, ReductionType.BF16, 0x3f80, 0x3f80));
    }

    @Test
    void halfMinMaxTreatNaNsAndSignedZeros() {
        assertEquals(0x3c00, combine(ReductionOp.MIN, ReductionType.F16, 0x7e00, 0x3c00));
        assertEquals(0x7fff, combine(ReductionOp.MAX, ReductionType.F16, 0x7e00, 0x7e01));
        assertEquals(0x8000, combine(ReductionOp.MIN, ReductionType.BF16, 0x0000, 0x8000));
        assertEquals(0x0000, combine(ReductionOp.MAX, ReductionType.BF16, 0x8000, 0x0000));
    }

    @Test
    void tablesFollowTheSpec() {
        assertTrue(ReductionRules.allowed(ReductionRules.Destination.GLOBAL, ReductionOp.ADD, ReductionType.F64));
        assertFalse(ReductionRules.allowed(ReductionRules.Destination.TENSOR_GLOBAL, ReductionOp.ADD, ReductionType.F64));
        assertFalse(ReductionRules.allowed(ReductionRules.Destination.SHARED_CLUSTER, ReductionOp.MIN, ReductionType.U64));
        assertFalse(ReductionRules.allowed(ReductionRules.Destination.GLOBAL, ReductionOp.ADD, ReductionType.S64));
        assertNotNull(ReductionRules.problem(ReductionRules.Destination.GLOBAL, ReductionOp.ADD, ReductionType.F16, false));
        assertNull(ReductionRules.problem(ReductionRules.Destination.GLOBAL, ReductionOp.ADD, ReductionType.F16, true));
        assertNull(ReductionRules.problem(ReductionRules.Destination.TENSOR_GLOBAL, ReductionOp.ADD, ReductionType.F16, false));
        assertNotNull(ReductionRules.problem(ReductionRules.Destination.GLOBAL, ReductionOp.MIN, ReductionType.F16, true));
    }

    private static TensorMap map(List<Long> dims, List<Long> strides, List<Integer> box, List<Integer> elementStrides,
            ElementType type, Swizzle swizzle, OobFill fill) {
        return new TensorMap(0x10000, type, dims, strides, box, elementStrides, Interleave.NONE, swizzle,
                L2Promotion.NONE, fill);
    }

    private static List<long[]> moves(TensorCopy copy) {
        List<long[]> out = new ArrayList<>();
        copy.forEachElement((address, offset, bytes, inBounds) ->
                out.add(new long[] {address, offset, bytes, inBounds ? 1 : 0}));
        return out;
    }

    @Test
    void elementStridesSkipOuterRowsButNotInnerElements() {
        // Recorded on an H100 (testdata/run/tma-element-strides): without interleave dimension 0
        // is read contiguously whatever its element stride; dimension 1 takes every second row.
        TensorMap m = map(List.of(64L, 8L), List.of(256L), List.of(8, 4), List.of(2, 2), ElementType.U32,
                Swizzle.NONE, OobFill.NONE);
        TensorCopy copy = TensorCopy.tile(m, 0, 0);
        assertEquals(8 * 2 * 4, copy.txBytes());
        List<long[]> moves = moves(copy);
        assertEquals(16, moves.size());
        assertEquals(0x10000 + 4, moves.get(1)[0]);
        assertEquals(0x10000 + 2 * 256, moves.get(8)[0]);
        assertEquals(32, moves.get(8)[1]);
    }

    @Test
    void innermostCoordinateMustStartOnSixteenBytes() {
        TensorMap f32 = map(List.of(64L, 8L), List.of(256L), List.of(8, 4), List.of(1, 1), ElementType.F32,
                Swizzle.NONE, OobFill.NONE);
        assertNull(TensorCopy.innerCoordinateProblem(f32, 4));
        assertNull(TensorCopy.innerCoordinateProblem(f32, -8));
        assertNotNull(TensorCopy.innerCoordinateProblem(f32, 2));
        assertNotNull(TensorCopy.innerCoordinateProblem(f32, -2));
        TensorMap u8 = map(List.of(64L, 8L), List.of(64L), List.of(16, 4), List.of(1, 1), ElementType.U8,
                Swizzle.NONE, OobFill.NONE);
        assertNull(TensorCopy.innerCoordinateProblem(u8, 32));
        assertNotNull(TensorCopy.innerCoordinateProblem(u8, 8));
    }

    @Test
    void entirelyOutsideBoxStillCountsItsBytesAndNaNFills() {
        TensorMap m = map(List.of(16L, 4L), List.of(64L), List.of(4, 2), List.of(1, 1), ElementType.F32,
                Swizzle.NONE, OobFill.NAN);
        TensorCopy copy = TensorCopy.tile(m, 100, -50);
        assertEquals(32, copy.txBytes());
        assertTrue(moves(copy).stream().noneMatch(mv -> mv[3] == 1));
        byte[] shared = new byte[32];
        copy.load(new byte[256], 0x10000, shared, 0);
        assertEquals(0x7ff77ff7L, BulkReduction.read(shared, 28, 4));
    }

    @Test
    void swizzle32And64PermuteSixteenByteChunks() {
        TensorMap m64 = map(List.of(16L, 8L), List.of(64L), List.of(16, 8), List.of(1, 1), ElementType.U32,
                Swizzle.B64, OobFill.NONE);
        List<long[]> moves = moves(TensorCopy.tile(m64, 0, 0));
        // Row 2 starts at byte 128, where bits 7.. give 1: chunk 0 goes to chunk 1.
        assertEquals(128 + 16, moves.get(2 * 16)[1]);
        TensorMap m32 = map(List.of(8L, 8L), List.of(32L), List.of(8, 8), List.of(1, 1), ElementType.U32,
                Swizzle.B32, OobFill.NONE);
        assertEquals(4 * 32 + 16, moves(TensorCopy.tile(m32, 0, 0)).get(4 * 8)[1]);
        // A shared address that is not 1024-aligned shifts the pattern.
        assertEquals(16, moves(TensorCopy.tile(m64, 0, 0).atSharedAddress(128)).get(0)[1]);
    }

    @Test
    void gather4TakesFourRows() {
        TensorMap m = map(List.of(16L, 32L), List.of(64L), List.of(4, 1), List.of(1, 1), ElementType.U32,
                Swizzle.NONE, OobFill.NONE);
        TensorCopy copy = TensorCopy.gather4(m, 2, 7, 0, 31, 40);
        assertEquals(64, copy.txBytes());
        List<long[]> moves = moves(copy);
        assertEquals(0x10000 + 7 * 64 + 8, moves.get(0)[0]);
        assertEquals(0x10000 + 31 * 64 + 8, moves.get(8)[0]);
        assertEquals(0, moves.get(12)[3]);
        assertEquals(48, moves.get(12)[1]);
    }

    @Test
    void im2colWalksPixelsThroughTheBoundingBox() {
        // NWC: C = 4, W = 5, N = 2, f32; box: W from -1 to 5 - 1 - 1 = 3 (padding 1, filter 3).
        TensorMap m = map(List.of(4L, 5L, 2L), List.of(16L, 80L), List.of(4, 1, 1), List.of(1, 1, 1),
                ElementType.F32, Swizzle.NONE, OobFill.NONE);
        Im2colShape shape = new Im2colShape(List.of(-1), List.of(-1), 4, 8);
        TensorCopy copy = TensorCopy.im2col(m, shape, new int[] {0, -1, 0}, new int[] {1});
        assertEquals(8 * 16, copy.txBytes());
        List<long[]> moves = moves(copy);
        // Pixel 0: base w -1, offset 1: w 0 of image 0.
        assertEquals(0x10000, moves.get(0)[0]);
        assertEquals(1, moves.get(0)[3]);
        // Pixel 4: base w 3 (last in the box), reads w 4.
        assertEquals(0x10000 + 4 * 16, moves.get(16)[0]);
        // Pixel 5 wraps to w -1 of image 1: reads w 0 of image 1.
        assertEquals(0x10000 + 80, moves.get(20)[0]);
    }

    @Test
    void im2colWLoadsAlongWOnly() {
        TensorMap m = map(List.of(4L, 8L, 2L), List.of(16L, 128L), List.of(4, 1, 1), List.of(1, 1, 1),
                ElementType.F32, Swizzle.NONE, OobFill.NONE);
        Im2colShape shape = new Im2colShape(List.of(0), List.of(0), 4, 4);
        TensorCopy copy = TensorCopy.im2colW(m, shape, new int[] {0, 2, 0}, 2, 3, false);
        List<long[]> moves = moves(copy);
        assertEquals(6 * 16, copy.txBytes());
        assertEquals(0x10000 + 5 * 16, moves.get(0)[0]);
        assertEquals(0, moves.get(20)[3]); // w 10 is past the image
    }

    @Test
    void clusterRegistersAndMulticastMasks() {
        ClusterGeometry g = new ClusterGeometry(new Dim3(4, 4, 1), new Dim3(2, 2, 1), true);
        ClusterGeometry.Index cta = new ClusterGeometry.Index(3, 2, 0);
        assertEquals(1, g.clusterCtarank(cta));
        assertEquals(new ClusterGeometry.Index(1, 1, 0), g.clusterid(cta));
        assertEquals(new Dim3(2, 2, 1), g.nclusterid());
        assertEquals(new ClusterGeometry.Index(1, 0, 0), g.clusterCtaid(cta));
        assertEquals(4, g.clusterNctarank());
        assertEquals(new ClusterGeometry.Index(2, 3, 0), g.ctaidOfRank(cta, 2));
        assertNull(g.multicastMaskProblem(0xf));
        assertNotNull(g.multicastMaskProblem(0x10));
        assertEquals(2, ClusterGeometry.nextMulticastRank(0b1100, 1));
        assertEquals(-1, ClusterGeometry.nextMulticastRank(0b1100, 3));
        assertFalse(ClusterGeometry.implicit(new Dim3(3, 1, 1)).isExplicitCluster());
    }
}
