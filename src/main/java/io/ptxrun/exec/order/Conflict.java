package io.ptxrun.exec.order;

/**
 * Two accesses to one byte that the memory model leaves unordered, at least one a write and not
 * morally strong: the earlier one as the shadow memory remembered it and the one that found it.
 * Slots are launch-wide (cluster index times slots per cluster plus the slot). {@code scope}: for
 * two strong accesses that race because their scopes do not include each other's threads, the
 * narrower of their scopes ({@link Scopes}); -1 otherwise.
 */
public record Conflict(String rule, String kind, int firstPc, long firstSlot, boolean firstWrite,
                       int secondPc, long secondSlot, boolean secondWrite, int space, long address, int scope) {
}
