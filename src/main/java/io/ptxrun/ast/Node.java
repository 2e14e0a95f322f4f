package io.ptxrun.ast;

/** Every AST node knows where it came from. */
public interface Node {
    SourcePos pos();
}
