/*
 * PTX modules as written by hand and as emitted by `nvcc -ptx` (PTX ISA 9.0, chapter 4 "Syntax",
 * chapter 5 "State Spaces, Types, and Variables", chapter 11 "Directives").
 *
 * The grammar is deliberately generic about instructions: an instruction is an opcode followed by
 * a chain of `.qualifier` words and an operand list. Which opcodes and qualifiers exist, and how
 * they combine, is data (io.ptxrun.ast.Opcode, io.ptxrun.ast.Qualifier, io.ptxrun.isa), so adding
 * an instruction never touches this file.
 *
 * Decisions are LL(1) or LL(2) almost everywhere so that the parser runs in SLL mode.
 */
grammar PTX;

options { superClass = io.ptxrun.syntax.LabeledRulesParser; }

@header { package io.ptxrun.syntax.generated; }

// ---------------------------------------------------------------------------------------------
// Entry points

module        : moduleItem* EOF ;
/** A bare list of statements, as in the code examples of the ISA text. */
statementList : (directive | statement)* EOF ;

// ---------------------------------------------------------------------------------------------
// Module level (11.1 and 11.2)

/** Functions are module items only: code examples (statementList) hold no function definitions. */
moduleItem : directive | linkage* varDecl | linkage* function | pragma ;

directive
    : VERSION DEC_FLOAT                                       # versionDirective
    | TARGET IDENT (',' IDENT)*                               # targetDirective
    | ADDRESS_SIZE INT                                        # addressSizeDirective
    | FILE INT STRING (',' INT)*                              # fileDirective
    | SECTION dotWord '{' sectionItem* '}'                    # sectionDirective
    | ALIAS IDENT ',' IDENT ';'                               # aliasDirective
    ;

linkage : VISIBLE | EXTERN | WEAK | COMMON ;

/** Debug sections: `.b8 1,2,3`, `.b32 .debug_abbrev`, `.b64 $L__func_begin0`, labels, `@@DWARF`. */
sectionItem
    : dotWord sectionValue (',' sectionValue)*
    | IDENT ':'
    | DWARF_LINE
    ;
sectionValue : dotWord (('+' | '-') INT)? | expr ;

pragma : PRAGMA STRING (',' STRING)* ';' ;

// ---------------------------------------------------------------------------------------------
// Functions (11.3): .entry / .func, return and input parameters, performance directives

/**
 * A declaration may end without `;` where the next module item follows, as nvopencc wrote the
 * prototypes at the top of a module. Only module items follow a function, so the decision is
 * made at the first token (a `{` is the body, and a syntax error in it is reported there).
 */
function
    : kind=(ENTRY | FUNC) results=paramList? name=IDENT inputs=paramList? funcDirective*
      (block | ';' | {nextStartsModuleItem()}?)
    ;

paramList : '(' (param (',' param)*)? ')' ;

/** `.param .align 64 .b8 tmap[128]`, `.param .u64 .ptr.shared.align 8 p`, `.reg .b32 x`. */
param : space=(PARAM | REG) declAttr* IDENT arrayDim* ;

/** `.maxntid 256, 1, 1`, `.reqnctapercluster 2`, `.explicitcluster`, `.noreturn`, ... */
funcDirective : DOT_WORD (INT (',' INT)*)? ;

// ---------------------------------------------------------------------------------------------
// Variables (5.4)

varDecl : stateSpace declAttr* declarator (',' declarator)* ';' ;

stateSpace : REG | SREG | LOCAL | SHARED | GLOBAL | CONST | PARAM | TEX ;

/** `.align 16`, a type, a vector width, `.ptr`, a pointee state space: classified by the builder. */
declAttr : ALIGN INT | dotWord ;

/** `x`, `%r<40>`, `a[4][4]`, `s[] = {...}`, `g = generic(v)+4`. */
declarator : IDENT ('<' INT '>')? arrayDim* ('=' initializer)? ;

arrayDim : '[' expr? ']' ;

initializer : '{' (initializer (',' initializer)*)? '}' | expr ;

// ---------------------------------------------------------------------------------------------
// Statements (4.3)

block : '{' stmts+=statement* '}' ;

statement
    : label=IDENT ':' labelDir=labelDirective?                 # labelStatement
    | links+=linkage* decl=varDecl                             # declStatement
    | g=guard? opcode=IDENT quals+=(DOT_WORD | REG | SREG | LOCAL | SHARED | GLOBAL | CONST | PARAM | TEX
          | ALIGN | VERSION | TARGET | ADDRESS_SIZE | FILE | LOC | SECTION | PRAGMA | ALIAS | ENTRY | FUNC
          | VISIBLE | EXTERN | WEAK | COMMON | CALLPROTOTYPE | CALLTARGETS | BRANCHTARGETS)*
      (ops+=operand (',' ops+=operand)*)? ';'                  # instructionStatement
    | b=block                                                  # blockStatement
    | p=pragma                                                 # pragmaStatement
    | LOC fileIndex=INT line=INT column=INT (',' attrs+=locAttribute)*  # locStatement
    ;

/** Directives that name their label: `p: .callprototype ...;`, `t: .calltargets f, g;`. */
labelDirective
    : CALLPROTOTYPE protoReturn=paramList? IDENT protoParams=paramList? funcDirective* ';'  # callPrototype
    | kind=(CALLTARGETS | BRANCHTARGETS) IDENT (',' IDENT)* ';'                           # targetList
    ;

/** `function_name $L__info_string0`, `inlined_at 1 12 5`. */
locAttribute : IDENT (INT INT INT | IDENT ('+' INT)?) ;

guard : '@' negated='!'? name=IDENT ;

/**
 * One operand. Plain names, immediates and `sym+imm` are expressions; `p|q` is an expression
 * too and becomes a predicate pair in the builder. `(a, b)` lists are call arguments. A lone
 * name or integer (most operands) takes the short alternatives: SLL prediction resolves their
 * overlap with termOperand to the first alternative, and the parse tree stays one node deep.
 */
operand
    : '{' elems+=operand (',' elems+=operand)* '}' ('|' pred=IDENT)?   # vectorOperand
    | '[' elems+=operand (',' elems+=operand)* ']' suffix=DOT_WORD?     # addressOperand
    | '(' (elems+=operand (',' elems+=operand)*)? ')'                   # listOperand
    | name=IDENT component=DOT_WORD                                     # componentOperand
    | name=IDENT                                                        # nameOperand
    | value=INT                                                         # intOperand
    | terms+=term (ops+=binaryOp terms+=term)+                          # exprOperand
    | t=term                                                            # termOperand
    ;

// ---------------------------------------------------------------------------------------------
// Constant expressions (4.6.2), used for immediates, offsets, array sizes and initializers

/**
 * A flat chain `term op term op ...`: the builder applies C precedence. Keeping this rule free of
 * left recursion (and so of precedence predicates) lets SLL prediction cache every decision,
 * which is most of the parser's speed: nearly every operand passes through here.
 */
expr : terms+=term (ops+=binaryOp terms+=term)* ;

binaryOp : op=('*' | '/' | '%' | '+' | '-' | '<<' | '>>' | '&' | '^' | '|') ;

term
    : op=('-' | '~' | '!') inner=term                          # unaryTerm
    | '(' e=expr ')'                                           # parenTerm
    | fn=IDENT '(' arg=IDENT ')'                               # callTerm
    | name=IDENT '[' index=expr ']'                            # indexTerm
    | name=IDENT                                               # nameTerm
    | value=INT                                                # intTerm
    | value=(HEX_FLOAT | DEC_FLOAT)                            # floatTerm
    ;

/**
 * Any `.word`; the keywords below are also qualifiers (`ld.global`, `ld.weak`, `fence.proxy.alias`).
 * instructionStatement lists the same set inline, so qualifiers are bare tokens in the tree.
 */
dotWord
    : DOT_WORD | REG | SREG | LOCAL | SHARED | GLOBAL | CONST | PARAM | TEX | ALIGN
    | VERSION | TARGET | ADDRESS_SIZE | FILE | LOC | SECTION | PRAGMA | ALIAS
    | ENTRY | FUNC | VISIBLE | EXTERN | WEAK | COMMON
    | CALLPROTOTYPE | CALLTARGETS | BRANCHTARGETS
    ;

// ---------------------------------------------------------------------------------------------
// Lexer (4.1 - 4.5)

VERSION       : '.version' ;
TARGET        : '.target' ;
ADDRESS_SIZE  : '.address_size' ;
FILE          : '.file' ;
LOC           : '.loc' ;
SECTION       : '.section' ;
PRAGMA        : '.pragma' ;
ALIAS         : '.alias' ;
ENTRY         : '.entry' ;
FUNC          : '.func' ;
VISIBLE       : '.visible' ;
EXTERN        : '.extern' ;
WEAK          : '.weak' ;
COMMON        : '.common' ;
CALLPROTOTYPE : '.callprototype' ;
CALLTARGETS   : '.calltargets' ;
BRANCHTARGETS : '.branchtargets' ;
REG           : '.reg' ;
SREG          : '.sreg' ;
LOCAL         : '.local' ;
SHARED        : '.shared' ;
GLOBAL        : '.global' ;
CONST         : '.const' ;
PARAM         : '.param' ;
TEX           : '.tex' ;
ALIGN         : '.align' ;

/** `.u32`, `.shared::cluster`, `.mbarrier::complete_tx::bytes`, `.2d`, `.L2::cache_hint`. */
DOT_WORD : '.' [a-zA-Z0-9_] [a-zA-Z0-9_]* ('::' [a-zA-Z0-9_]+)* ;

/** Identifiers (4.4): followsym is [a-zA-Z0-9_$]; `%r1`, `$L__BB0_1`, `_Z3fooi`, `_` (sink). */
IDENT : [a-zA-Z_$%] [a-zA-Z0-9_$]* ;

/** 0f/0d hexadecimal floating-point literals (4.5.1): exactly 8 or 16 hex digits. */
HEX_FLOAT
    : '0' [fF] HEX HEX HEX HEX HEX HEX HEX HEX
    | '0' [dD] HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX HEX
    ;
DEC_FLOAT : [0-9]+ '.' [0-9]* EXPONENT? | [0-9]+ EXPONENT ;

/** Integer literals (4.5.1): hex, octal, binary, decimal, optional U suffix. */
INT
    : '0' [xX] HEX+ 'U'?
    | '0' [bB] [01]+ 'U'?
    | '0' [0-7]+ 'U'?
    | [1-9] [0-9]* 'U'?
    | '0' 'U'?
    ;

STRING : '"' (~["\\\r\n] | '\\' .)* '"' ;

DWARF_LINE : '@@DWARF' ~[\r\n]* ;

WS            : [ \t\r\n\f]+ -> skip ;
LINE_COMMENT  : '//' ~[\r\n]* -> skip ;
BLOCK_COMMENT : '/*' .*? '*/' -> skip ;

/** Anything else becomes one token the parser rejects, so stray bytes give a syntax error. */
ERROR_CHAR : . ;

fragment HEX      : [0-9a-fA-F] ;
fragment EXPONENT : [eE] [+-]? [0-9]+ ;
