package io.ptxrun.launch;

/**
 * What one device {@code printf} call printed, and which thread of which CTA called it.
 *
 * @param cta the CTA's ctaid (x, y, z)
 * @param thread the thread's tid (x, y, z)
 */
public record DeviceOutput(int[] cta, int[] thread, String text) {
    public DeviceOutput {
        cta = cta.clone();
        thread = thread.clone();
    }

    @Override
    public int[] cta() {
        return cta.clone();
    }

    @Override
    public int[] thread() {
        return thread.clone();
    }

    /** {@code ctaid (0,0,0) tid (3,0,0)}, the way diagnostics name a thread. */
    public String who() {
        return String.format("ctaid (%d,%d,%d) tid (%d,%d,%d)", cta[0], cta[1], cta[2], thread[0], thread[1], thread[2]);
    }
}
