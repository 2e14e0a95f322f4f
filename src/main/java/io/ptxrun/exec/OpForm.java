package io.ptxrun.exec;

/**
 * What an instruction family decodes beyond the operands every op has (code, guard, destinations,
 * sources, type): one immutable value per op, built once by {@link Decoder} and read by the
 * family's code, which knows its own form by the op code. Families that need nothing more leave
 * {@link Op#form} null.
 */
sealed interface OpForm permits WarpMatrixOps.Form, WarpMatrixOps.MoveForm, MmaSync.Form, WarpgroupForm, AsyncCopies.CopyForm, AsyncCopies.BulkForm, AsyncCopies.StoreForm,
        AsyncCopies.TensorForm, AsyncCopies.GroupStep, TensorMapEdits.ReplaceForm, TensorMapEdits.CopyForm,
        CallForm, MBarriers.Form, WarpOps.ShuffleMode, WarpOps.VoteMode, WarpOps.MatchMode, WarpOps.ReduxOp, WarpOps.FloatReduction,
        Barriers.Reduction, Atomics.Operation, Comparisons.Form, IntegerOps.ProductHalf, IntegerOps.DotProduct, IntegerOps.FunnelDirection, FloatArithmetic.MinMax, IntegerOps.PermuteMode,
        FloatArithmetic.TestedProperty, NarrowFloats.Conversion,
        OpForm.Unsupported {

    /** An instruction the engine does not run: executing it stops the run with {@code message}. */
    record Unsupported(String message) implements OpForm {
    }
}
