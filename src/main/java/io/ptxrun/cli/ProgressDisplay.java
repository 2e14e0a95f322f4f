package io.ptxrun.cli;

import io.ptxrun.exec.Progress;
import java.io.PrintWriter;

/**
 * What a long run shows on a terminal: once a second after the first, a status line with the CTAs
 * (clusters) done out of the grid's and the rate; nothing when the output is not a terminal or is
 * JSON. While the run lasts, an interrupt (Ctrl-C) prints where every warp in flight is.
 */
final class ProgressDisplay {
    private final Progress progress;
    private final PrintWriter err;
    private final boolean terminal;
    private final Thread onInterrupt;
    private Thread ticker;
    private volatile boolean running;
    private volatile boolean shown;

    ProgressDisplay(Progress progress, PrintWriter err, boolean terminal) {
        this.progress = progress;
        this.err = err;
        this.terminal = terminal;
        this.onInterrupt = new Thread(this::printWarps, "ptxrun-interrupt");
    }

    void start() {
        running = true;
        try {
            Runtime.getRuntime().addShutdownHook(onInterrupt);
        } catch (IllegalStateException | SecurityException e) {
            // shutting down already, or not allowed: no report on interrupt
        }
        if (!terminal) {
            return;
        }
        long started = System.nanoTime();
        ticker = new Thread(() -> {
            try {
                Thread.sleep(1000);
                while (running) {
                    double seconds = (System.nanoTime() - started) / 1e9;
                    int done = progress.done();
                    synchronized (err) {
                        err.print(String.format("\rptxrun: %d/%d CTAs done, %.1f CTAs/s\u001b[K", done,
                                progress.total(), done / seconds));
                        err.flush();
                    }
                    shown = true;
                    Thread.sleep(1000);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "ptxrun-progress");
        ticker.setDaemon(true);
        ticker.start();
    }

    void stop() {
        running = false;
        if (ticker != null) {
            ticker.interrupt();
            try {
                ticker.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        if (shown) {
            synchronized (err) {
                err.print("\r\u001b[K");
                err.flush();
            }
        }
        try {
            Runtime.getRuntime().removeShutdownHook(onInterrupt);
        } catch (IllegalStateException e) {
            // the JVM is shutting down (the hook runs or ran)
        }
    }

    /** On interrupt while the run lasts: where each warp in flight is. */
    private void printWarps() {
        if (!running) {
            return;
        }
        synchronized (err) {
            err.println();
            err.println("ptxrun: interrupted after " + progress.done() + "/" + progress.total() + " CTAs; warps in flight:");
            for (String line : progress.warps()) {
                err.println("  " + line);
            }
            err.flush();
        }
    }
}
