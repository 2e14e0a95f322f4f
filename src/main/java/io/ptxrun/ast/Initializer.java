package io.ptxrun.ast;

import java.util.List;

/** Variable initializers (5.4.4): a constant expression or a braced list of initializers. */
public sealed interface Initializer permits Initializer.Value, Initializer.Braced {

    /** A scalar: an immediate, a symbol address (`sym+4`) or `generic(sym)`. */
    record Value(Operand value) implements Initializer {}

    record Braced(List<Initializer> elements) implements Initializer {
        public Braced {
            elements = List.copyOf(elements);
        }
    }
}
