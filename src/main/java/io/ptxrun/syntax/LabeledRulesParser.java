package io.ptxrun.syntax;

import java.util.List;
import java.util.Set;
import org.antlr.v4.runtime.Parser;
import org.antlr.v4.runtime.ParserRuleContext;
import org.antlr.v4.runtime.TokenStream;

/**
 * The generated parser's base class. The rules every instruction passes through (block, statement,
 * guard, operand, expr, binaryOp, term) build no parse-tree children: the builder reads their
 * labeled fields instead. Creating a tree node for each of their tokens and sub-rules was a large
 * share of parsing time, for nothing the builder needed. The other rules (directives,
 * declarations) keep their children as usual.
 *
 * <p>A rule's context is attached to its parent's children when the parent keeps children, so a
 * declaration under a statement is reached through its label, and an expression under an array
 * dimension through the usual accessor.
 */
public abstract class LabeledRulesParser extends Parser {
    private static final Set<String> LABELED_RULES =
            Set.of("block", "statement", "guard", "operand", "expr", "binaryOp", "term");

    /** By rule index: whether the rule keeps its children in the parse tree. */
    private boolean[] keepsChildren;

    protected LabeledRulesParser(TokenStream input) {
        super(input);
    }

    private boolean keepsChildren(int ruleIndex) {
        if (keepsChildren == null) {
            List<String> names = List.of(getRuleNames());
            keepsChildren = new boolean[names.size()];
            for (int i = 0; i < keepsChildren.length; i++) {
                keepsChildren[i] = !LABELED_RULES.contains(names.get(i));
            }
        }
        return keepsChildren[ruleIndex];
    }

    /** Tokens that begin a module-level item, by symbolic name. */
    private static final Set<String> MODULE_ITEM_STARTS = Set.of("VISIBLE", "EXTERN", "WEAK", "COMMON", "ENTRY",
            "FUNC", "GLOBAL", "SHARED", "CONST", "TEX", "LOCAL", "FILE", "SECTION", "PRAGMA", "ALIAS", "EOF");

    /** Whether the next token begins a module-level item (or ends the module). */
    protected boolean nextStartsModuleItem() {
        String name = getVocabulary().getSymbolicName(_input.LA(1));
        return name != null && MODULE_ITEM_STARTS.contains(name);
    }

    @Override
    public void enterOuterAlt(ParserRuleContext localctx, int alt) {
        // Attached to (or, for a labeled alternative, swapped into) the parent as the parent wants;
        // then the rule's own tokens and sub-rules follow the rule's choice.
        super.enterOuterAlt(localctx, alt);
        setBuildParseTree(keepsChildren(localctx.getRuleIndex()));
    }

    @Override
    public void exitRule() {
        super.exitRule();
        ParserRuleContext parent = getContext();
        setBuildParseTree(parent == null || keepsChildren(parent.getRuleIndex()));
    }
}
