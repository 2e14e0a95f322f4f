/**
 * The execution engine: runs one kernel launch of a parsed module.
 *
 * <p>{@link io.ptxrun.exec.Grid} prepares a launch (decoding, the launch's limits, workers for the
 * memory budget) and gathers its result. {@link io.ptxrun.exec.Decoder} turns every function body
 * into an array of ops once: registers become indices into a per-frame register file, immediates
 * raw bits, labels op indices, symbols addresses in their state space; each instruction goes to its
 * family's decoding ({@link io.ptxrun.exec.LaneOpDecoding}, {@link io.ptxrun.exec.MemoryDecoding},
 * {@link io.ptxrun.exec.ControlDecoding}, {@link io.ptxrun.exec.SyncDecoding}, {@link
 * io.ptxrun.exec.WarpDecoding}, {@link io.ptxrun.exec.CopyDecoding}). An op is made once,
 * whole, and never changes; its memory access ({@link io.ptxrun.exec.MemoryAccess}), arithmetic
 * modifiers ({@link io.ptxrun.exec.Modifiers}) and family-specific parts ({@link
 * io.ptxrun.exec.OpForm}) are immutable typed forms.
 * {@link io.ptxrun.exec.Engine} runs a warp's steps and hands each op to its family; its {@link
 * io.ptxrun.exec.Scheduler} says who runs when. A worker (an engine and its scheduler) runs
 * one cluster at a time (with clusters of one CTA, one CTA), and {@link io.ptxrun.exec.CtaPool}
 * gives separate clusters to several workers on their own threads (they share only the
 * thread-safe global memory); the scheduler interleaves the CTAs of a cluster ({@link
 * io.ptxrun.exec.Cta}, each with its shared memory and synchronization state), since they may reach
 * each other's shared memory and barriers, and gives a CTA's warps turns in time slices; inside a
 * warp each lane has its own program counter and the engine's step runs the lanes at the lowest one
 * together, which reconverges divergent paths where they meet ({@link
 * io.ptxrun.exec.RandomSchedule} varies these choices under a seed). Register
 * files are flat {@code long} arrays indexed {@code ((frameBase + reg) << 5) | lane} holding raw
 * 64-bit patterns, so one op loops over its active lanes without any per-lane objects. The
 * semantics of each instruction family live in a class of their own, reading and writing
 * operands through {@link io.ptxrun.exec.Operands}, {@link io.ptxrun.exec.LaneOps} running the
 * lane-local ones: {@link io.ptxrun.exec.IntegerOps},
 * {@link io.ptxrun.exec.FloatArithmetic} (with the helpers of {@link io.ptxrun.exec.FloatOps} and
 * {@link io.ptxrun.exec.ApproxOps}), {@link io.ptxrun.exec.Comparisons}, {@link io.ptxrun.exec.Convert},
 * {@link io.ptxrun.exec.Atomics}, {@link io.ptxrun.exec.WarpOps}, {@link io.ptxrun.exec.Calls}, the
 * synchronization classes; {@link io.ptxrun.exec.LaneMemory} is the state spaces as lanes reach
 * them (ld, st, the address instructions), each space a {@link io.ptxrun.exec.Space} the decoder
 * resolved; {@link io.ptxrun.exec.SpecialRegisters} the special registers; {@link
 * io.ptxrun.exec.AccessOrdering} hands every access to the hazard detector.
 *
 * <p>Two tiers run the ops. The interpreter ({@link io.ptxrun.exec.Engine#step}) runs one op for the
 * lowest-PC lane group and is the reference. {@link io.ptxrun.exec.Regions} counts how often each op
 * index is entered and compiles the straight-line region of lane-local ops starting there ({@link
 * io.ptxrun.exec.RegionCompiler}, JVM bytecode through ASM, one hidden class per region) once it is
 * hot; a compiled region runs only where that cannot be told from interpreting it op by op (the
 * group stays the lowest for the whole region, the budget and the warp's turn cover it, its lanes
 * share one frame), and counts each op as the interpreter does, so statistics, the clock, budget
 * ends and fault reports are the same. It inlines only the interpreter's own whole-group forms of
 * the simple ops (through the same static helpers) and calls {@link io.ptxrun.exec.LaneOps#run}
 * for every other op, the hazard detector's hooks included: each family is defined once.
 * Where a lane group enters if-then-else code (simple ops and forward branches, such as a loop
 * body's diamonds), a branching region runs it in one method under lane masks, op by op in
 * program order, each op for the lanes that reached it: the lowest-PC rule's order when every
 * branch goes forward; it stops early, lanes at their PCs, where the turn or the budget ends.
 * Everything that needs the scheduler (backward branches but a region's last, calls, barriers,
 * waits, async copies, warp collectives) stays with the interpreter.
 *
 * <p>Generic addresses use fixed windows for shared, local, const and param memory; global
 * addresses are those of {@link io.ptxrun.exec.GlobalMemory}. Inside the shared window a CTA's own
 * variables sit at their plain offsets and the CTA of cluster rank r also at {@code (r + 1) *}
 * {@link io.ptxrun.exec.Cta#DSMEM_SPAN} (what mapa returns), so a shared::cluster address names
 * its CTA. Kernel misbehaviour (faults, traps,
 * deadlocks, exhausted budgets, unsupported instructions) ends the run with a status and a
 * diagnostic naming the instruction and the thread; nothing is thrown to the caller.
 *
 * <p>Synchronization has a class per instruction family: {@link io.ptxrun.exec.Barriers} (bar,
 * barrier), {@link io.ptxrun.exec.ClusterBarrier} (barrier.cluster), {@link io.ptxrun.exec.MBarriers}
 * (mbarrier objects in shared memory, also reached remotely), {@link io.ptxrun.exec.AsyncCopies}
 * (cp.async, bulk and tensor copies that land asynchronously, possibly in peer CTAs, with their
 * groups; the pure data movement is in {@code exec.copy}) and {@link io.ptxrun.exec.Hazards} (undefined behaviour).
 * Every checked access and every synchronizing event also goes to the hazard detector, {@link
 * io.ptxrun.exec.order.MemoryOrder} (one per worker), which orders them as the PTX memory model does
 * and reports what it leaves unordered; {@link io.ptxrun.exec.HazardReports} words its findings. The engine
 * counts progress events (memory writes, arrivals, completions, exits) and the scheduler judges
 * them: a round of all warps without one, in which every warp that ran only polled failed waits,
 * first lets pending copies land, then times out suspended try_waits; it is a deadlock once the
 * warps come back to the state of an earlier stall (registers, program counters, wait masks) with
 * no event between (a fixed point: a bounded polling loop counts its tries, never repeats, and
 * ends). The virtual clock (%clock, %globaltimer) jumps ahead at the first such stall and
 * then stands still until a warp does more than poll, so time-bounded back-off loops
 * (cuda::barrier::wait) reach that fixed point too. A round without events that returns to an
 * earlier state is a spin that never ends ({@link io.ptxrun.exec.SpinDetector}); {@link
 * io.ptxrun.exec.StopReports} words these stops and the budget ones.
 *
 * <p>The device-library functions nvcc calls ({@code vprintf}, {@code __assertfail},
 * {@code malloc}, {@code free}) are run by {@link io.ptxrun.exec.DeviceLibrary};
 * {@link io.ptxrun.exec.Progress} and {@link io.ptxrun.exec.Trace} let a display follow a run.
 */
package io.ptxrun.exec;
