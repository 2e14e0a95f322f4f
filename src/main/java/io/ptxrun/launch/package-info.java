/**
 * What a run of one kernel needs besides the PTX text, and what it produces, in the JSON formats
 * shared with the hardware harness ({@code docs/launch-format.md}).
 *
 * <ul>
 *   <li>{@link io.ptxrun.launch.LaunchFile}: a launch file (grid, block, cluster, buffers, tensor
 *       maps, parameters, dump list), read with errors that name the JSON path; {@link
 *       io.ptxrun.launch.LaunchArgs} builds the same from command-line flags.
 *   <li>{@link io.ptxrun.launch.BufferSpec#initialContents()}: a buffer's bytes before the kernel
 *       runs, byte for byte as the harness makes them with numpy and {@link
 *       io.ptxrun.launch.SplitMix64}.
 *   <li>{@link io.ptxrun.launch.TensorMap}: the 128-byte tensor map passed by value, its layout
 *       and the driver's rules for it.
 *   <li>{@link io.ptxrun.launch.RunResult}, {@link io.ptxrun.launch.ResultJson}, {@link
 *       io.ptxrun.launch.ResultComparison}: the result file, written with the shortest decimals,
 *       read back (also from hardware runs) and compared.
 * </ul>
 */
package io.ptxrun.launch;
