/**
 * The execution engine: runs one kernel launch of a parsed module.
 *
 * <p>{@link io.ptxrun.exec.Decoder} turns every function body into an array of ops once: registers
 * become indices into a per-frame register file, immediates raw bits, labels op indices, symbols
 * addresses in their state space. {@link io.ptxrun.exec.Engine} runs one CTA at a time, and
 * {@link io.ptxrun.exec.CtaPool} gives independent CTAs to several engines on worker threads
 * (they share only the thread-safe global memory); a CTA's warps take turns in time slices; inside a warp each lane has its own program counter and the
 * lanes at the lowest one run together, which reconverges divergent paths where they meet ({@link io.ptxrun.exec.RandomSchedule} varies these
 * choices under a seed). Register
 * files are flat {@code long} arrays indexed {@code ((frameBase + reg) << 5) | lane} holding raw
 * 64-bit patterns, so one op loops over its active lanes without any per-lane objects. The
 * semantics of each instruction family live in a class of their own: {@link io.ptxrun.exec.IntegerOps},
 * {@link io.ptxrun.exec.FloatOps}, {@link io.ptxrun.exec.ApproxOps}, {@link io.ptxrun.exec.Convert},
 * {@link io.ptxrun.exec.Atomics}, {@link io.ptxrun.exec.WarpOps}.
 *
 * <p>Generic addresses use fixed windows for shared, local, const and param memory; global
 * addresses are those of {@link io.ptxrun.exec.GlobalMemory}. Kernel misbehaviour (faults, traps,
 * deadlocks, exhausted budgets, unsupported instructions) ends the run with a status and a
 * diagnostic naming the instruction and the thread; nothing is thrown to the caller.
 */
package io.ptxrun.exec;
