/**
 * The memory model's ordering, kept apart from the interpreter: which accesses the PTX memory
 * consistency model orders, and the hazards among those it leaves unordered.
 *
 * <p>Every thread of a cluster has a vector clock ({@link io.ptxrun.exec.order.ThreadClocks}): its
 * own counter, which advances at each release it performs, and what it knows of every other
 * thread's counter. Knowledge flows only along the edges the spec gives: barrier arrivals to the
 * threads the barrier releases (bar/barrier, barrier.cluster, bar.warp.sync), mbarrier arrivals and
 * complete-tx to a successful test_wait/try_wait of that phase, a release (a .release operation,
 * or a fence before a relaxed one) to an acquire (an .acquire operation, or a relaxed one followed
 * by a fence) through the location they both access. Lanes of one warp are separate threads
 * (independent thread scheduling): running the same instruction orders nothing.
 *
 * <p>Asynchronous copies act as threads of their own (one "async agent" per issuing thread): a
 * copy knows what its issuer knew at issue, its writes carry the agent's counter, and only the
 * completion mechanism (wait_group, complete-tx of the phase a consumer waits on) hands that
 * counter on.
 *
 * <p>{@link io.ptxrun.exec.order.ShadowMemory} keeps, per byte, the last write and up to two
 * concurrent reads, each as an epoch (thread and counter, and whether the access was a strong one:
 * atomics, relaxed/acquire/release and volatile accesses never race with each other). An access
 * that is not ordered after a conflicting earlier one is a hazard, reported by {@link
 * io.ptxrun.exec.order.HazardLog} once per pair of instructions. Dropping a read that is not
 * remembered can only miss a hazard, never invent one.
 *
 * <p>A warp's reads of a CTA's shared memory that cannot find anything (its threads share one
 * knowledge array, which covers the words' writes) are logged rather than recorded ({@link
 * io.ptxrun.exec.order.ReadLog}): a tile read between two barriers is dropped once every thread
 * has passed the second, since no later access can conflict with it; anything else that looks at
 * the shadow first replays the log into it, as if each read had been recorded when made.
 */
package io.ptxrun.exec.order;
