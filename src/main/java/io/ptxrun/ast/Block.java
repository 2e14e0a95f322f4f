package io.ptxrun.ast;

import java.util.List;

/** `{ ... }`: a function body or a nested scope with its own declarations. */
public record Block(SourcePos pos, List<Statement> statements) implements Statement {
    public Block {
        statements = List.copyOf(statements);
    }
}
