package io.ptxrun.ast;

/** `@p` / `@!p` in front of an instruction. */
public record Guard(SourcePos pos, Operand predicate, boolean negated) implements Node {}
