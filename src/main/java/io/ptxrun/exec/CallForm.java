package io.ptxrun.exec;

/**
 * A decoded call: whom it calls, and the frame offsets of the caller's .param
 * variables passed as arguments and receiving the results, in order; the callee's own parameter
 * layout is in its {@link Decoder.FuncInfo}. For {@link OpCode#CALL} the callee is an index into the
 * program's functions, or -1 when the call goes through the function address in source 0; for
 * {@link OpCode#LIBRARY_CALL} it is the {@link DeviceLibrary} function.
 */
record CallForm(int callee, int[] argOffsets, int[] resultOffsets) implements OpForm {

    /** The frame offset of argument k, or -1 when the call passes fewer. */
    int argOffset(int k) {
        return k < argOffsets.length ? argOffsets[k] : -1;
    }
}
