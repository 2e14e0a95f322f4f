package io.ptxrun.exec;

/** An access the kernel made outside valid memory; caught by the engine, never leaves it. */
final class MemoryFault extends RuntimeException {
    MemoryFault(String message) {
        super(message, null, false, false);
    }
}
