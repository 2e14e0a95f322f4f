package io.ptxrun.ast;

import java.util.List;

/** What can stand in a function body (PTX ISA 4.3). */
public sealed interface Statement extends Node
        permits Instruction, VarDecl, Block, Pragma, Statement.Label, Statement.Loc,
                Statement.CallPrototype, Statement.TargetList {

    /** `$L__BB0_1:`. */
    record Label(SourcePos pos, String name) implements Statement {}

    /** `.loc 1 12 5, inlined_at 1 30 7`: debug line information, kept for diagnostics. */
    record Loc(SourcePos pos, int file, int line, int column, List<String> attributes) implements Statement {
        public Loc {
            attributes = List.copyOf(attributes);
        }
    }

    /** `proto: .callprototype (.param .b32 _) _ (.param .b32 _);` (11.3). */
    record CallPrototype(SourcePos pos, String label, List<Param> results, List<Param> params)
            implements Statement {
        public CallPrototype {
            results = List.copyOf(results);
            params = List.copyOf(params);
        }
    }

    /** `t: .calltargets f, g;` or `t: .branchtargets L1, L2;`. */
    record TargetList(SourcePos pos, String label, boolean branch, List<String> targets) implements Statement {
        public TargetList {
            targets = List.copyOf(targets);
        }
    }
}
