package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.Token.Type;
import io.layoutbench.api.predicate.TypeRules.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * Recursive-descent parser for {@code <predicate> [LIMIT n]}. Grammar, loosest first (SQL precedence):
 *
 * <pre>
 * query          := (or | ) [LIMIT integer] END        -- a bare "LIMIT n" means every row, first n
 * or             := and (OR and)*
 * and            := not (AND not)*
 * not            := NOT* predicate
 * predicate      := additive [ compareOp additive | [NOT] IN '(' additive (',' additive)* ')'
 *                              | [NOT] LIKE string | IS [NOT] NULL ]
 * additive       := multiplicative (('+' | '-') multiplicative)*
 * multiplicative := unary (('*' | '/') unary)*
 * unary          := '-'* primary
 * primary        := integer | decimal | string | TRUE | FALSE | identifier | "quoted identifier"
 *                 | CAST '(' or AS (BIGINT | DOUBLE) ')' | '(' or ')'
 * </pre>
 *
 * <p>{@link SelectParser} parses a SELECT statement around this grammar, on the same tokens: it reads the clauses
 * and asks this parser for the expressions in them ({@link #value()}, {@link #condition()}, {@link #limit()}).
 *
 * <p>Nodes are built with {@link Expressions}, so constants fold while parsing. With a schema, every node is also
 * type-checked as soon as it is built, so type errors carry the position of the offending operator or operand.
 * Input length and nesting depth are capped ({@link Query#MAX_LENGTH}, {@link Query#MAX_DEPTH}) so hostile input
 * cannot exhaust the stack of this parser or of the recursive visitors that later walk the tree.
 */
final class Parser {
    private final String sql;
    private final List<Token> tokens;
    private final Binder binder;
    /** Whether the statement keywords are reserved too: they are inside a SELECT statement. */
    private final boolean statement;
    private int index;
    private int nesting;

    /** An expression and the offset where its text starts, for errors about it as an operand. */
    record Parsed(Expression expr, int offset) {
    }

    /**
     * @param schema    resolves columns and checks types as nodes are built; null to check syntax and literals only
     * @param statement whether {@code sql} is a SELECT statement, whose clause keywords are then reserved
     */
    Parser(String sql, MetadataSchema schema, boolean statement) {
        this.sql = sql;
        this.binder = schema == null ? null : new Binder(schema);
        this.statement = statement;
        if (sql.length() > Query.MAX_LENGTH) {
            throw error("Input too long", "expected at most " + Query.MAX_LENGTH + " characters but found "
                    + sql.length(), Query.MAX_LENGTH);
        }
        this.tokens = Tokenizer.tokenize(sql);
    }

    /** Parses {@code sql}; when {@code schema} is not null, resolves columns and checks types as it goes. */
    static Query parse(String sql, MetadataSchema schema) {
        return new Parser(sql, schema, false).query();
    }

    private Query query() {
        Expression where;
        if (peek().isKeyword("LIMIT")) {
            where = Expressions.alwaysTrue();
        } else if (peek().type() == Type.END) {
            throw syntax("a predicate", peek());
        } else {
            where = condition();
        }
        OptionalLong limit = OptionalLong.empty();
        if (peek().isKeyword("LIMIT")) {
            next();
            limit = OptionalLong.of(limit());
        }
        if (peek().type() != Type.END) {
            throw syntax(limit.isPresent() ? "end of input after LIMIT " + limit.getAsLong()
                    : "AND, OR, LIMIT or end of input", peek());
        }
        return new Query(where, limit);
    }

    /** A WHERE predicate: {@code or}, which must be BOOLEAN. */
    Expression condition() {
        Parsed where = or();
        requireBoolean(where, "a WHERE clause must be a BOOLEAN predicate");
        return where.expr();
    }

    /** A value: {@code additive}, the operand of a comparison. */
    Parsed value() {
        return additive();
    }

    /** The integer after a LIMIT keyword that was just read. */
    long limit() {
        Token t = next();
        String expected = "expected a non-negative integer after LIMIT but found ";
        if (t.type() == Type.INTEGER) {
            try {
                return Long.parseLong(t.text());
            } catch (NumberFormatException e) {
                throw error("Invalid LIMIT", expected + "integer " + t.text() + ", which is larger than "
                        + Long.MAX_VALUE, t.start());
            }
        } else if (t.isSymbol("-") && (peek().type() == Type.INTEGER || peek().type() == Type.DECIMAL)) {
            throw error("Invalid LIMIT", expected + "-" + peek().text(), t.start());
        }
        throw error("Invalid LIMIT", expected + t.describe(), t.start());
    }

    private Parsed or() {
        Parsed first = and();
        if (!peek().isKeyword("OR")) {
            return first;
        }
        int operatorOffset = peek().start();
        List<Parsed> operands = new ArrayList<>(List.of(first));
        while (peek().isKeyword("OR")) {
            next();
            operands.add(and());
        }
        return junction(operands, false, operatorOffset);
    }

    private Parsed and() {
        Parsed first = not();
        if (!peek().isKeyword("AND")) {
            return first;
        }
        int operatorOffset = peek().start();
        List<Parsed> operands = new ArrayList<>(List.of(first));
        while (peek().isKeyword("AND")) {
            next();
            operands.add(not());
        }
        return junction(operands, true, operatorOffset);
    }

    private Parsed junction(List<Parsed> operands, boolean isAnd, int operatorOffset) {
        String keyword = isAnd ? "AND" : "OR";
        List<Expression> expressions = new ArrayList<>(operands.size());
        for (Parsed operand : operands) {
            // Checked before Expressions.and/or simplify, which could drop an ill-typed operand.
            requireBoolean(operand, keyword + " needs BOOLEAN operands");
            expressions.add(operand.expr());
        }
        return build(() -> isAnd ? Expressions.and(expressions) : Expressions.or(expressions), operatorOffset,
                operands.get(0).offset());
    }

    private Parsed not() {
        List<Token> nots = new ArrayList<>();
        while (peek().isKeyword("NOT")) {
            nots.add(next());
        }
        Parsed operand = predicate();
        for (int i = nots.size() - 1; i >= 0; i--) {
            requireBoolean(operand, "NOT needs a BOOLEAN operand");
            Expression inner = operand.expr();
            int offset = nots.get(i).start();
            operand = build(() -> Expressions.not(inner), offset, offset);
        }
        return operand;
    }

    private Parsed predicate() {
        Parsed left = additive();
        Token t = peek();
        ComparisonOperator op = comparisonOperator(t);
        if (op != null) {
            next();
            Parsed right = additive();
            Parsed result = build(() -> Expressions.comparison(op, left.expr(), right.expr()), t.start(),
                    left.offset());
            if (comparisonOperator(peek()) != null) {
                throw syntax("AND, OR, LIMIT or end of input (comparisons cannot be chained)", peek());
            }
            return result;
        }
        boolean negated = false;
        if (t.isKeyword("NOT")) {
            Token after = tokens.get(index + 1);
            if (!after.isKeyword("IN") && !after.isKeyword("LIKE") && !after.isKeyword("BETWEEN")) {
                throw syntax("IN, LIKE or BETWEEN after NOT", after);
            }
            next();
            negated = true;
        }
        Token keyword = peek();
        if (keyword.isKeyword("IN")) {
            next();
            return inList(left, negated, keyword);
        } else if (keyword.isKeyword("LIKE")) {
            next();
            return like(left, negated, keyword);
        } else if (keyword.isKeyword("BETWEEN")) {
            next();
            return between(left, negated, keyword);
        } else if (keyword.isKeyword("IS")) {
            next();
            boolean not = false;
            if (peek().isKeyword("NOT")) {
                next();
                not = true;
            }
            if (!peek().isKeyword("NULL")) {
                throw syntax("NULL after IS" + (not ? " NOT" : ""), peek());
            }
            next();
            boolean isNotNull = not;
            return build(() -> isNotNull ? Expressions.isNotNull(left.expr()) : Expressions.isNull(left.expr()),
                    keyword.start(), left.offset());
        }
        return left;
    }

    private Parsed inList(Parsed operand, boolean negated, Token keyword) {
        Token open = peek();
        if (!open.isSymbol("(")) {
            throw syntax("'(' after IN", open);
        }
        next();
        if (peek().isSymbol(")")) {
            throw error("Empty IN list", "expected at least one value but found ')'", peek().start());
        }
        List<Literal> values = new ArrayList<>();
        while (true) {
            Parsed value = additive();
            if (!(value.expr() instanceof Literal literal)) {
                throw error("Unsupported IN list value", "expected a constant but found "
                        + TypeRules.excerpt(value.expr()), value.offset());
            }
            values.add(literal);
            if (peek().isSymbol(",")) {
                next();
            } else if (peek().isSymbol(")")) {
                next();
                break;
            } else {
                throw syntax("',' or ')' to close the IN list opened at " + where(open.start()), peek());
            }
        }
        return build(() -> negated ? Expressions.notIn(operand.expr(), values)
                : Expressions.in(operand.expr(), values), keyword.start(), operand.offset());
    }

    /**
     * {@code operand [NOT] BETWEEN low AND high}, which SQL defines as {@code operand >= low AND operand <= high}
     * (negated: {@code NOT (...)}), and which is built, and printed, as that.
     */
    private Parsed between(Parsed operand, boolean negated, Token keyword) {
        Parsed low = additive();
        if (!peek().isKeyword("AND")) {
            throw syntax("AND between the bounds of BETWEEN at " + where(keyword.start()), peek());
        }
        next();
        Parsed high = additive();
        return build(() -> {
            Expression range = Expressions.and(Expressions.comparison(ComparisonOperator.GREATER_THAN_OR_EQUAL,
                    operand.expr(), low.expr()), Expressions.comparison(ComparisonOperator.LESS_THAN_OR_EQUAL,
                    operand.expr(), high.expr()));
            return negated ? Expressions.not(range) : range;
        }, keyword.start(), operand.offset());
    }

    private Parsed like(Parsed operand, boolean negated, Token keyword) {
        Token pattern = peek();
        if (pattern.type() != Type.STRING) {
            throw error("Invalid LIKE pattern", "expected a string literal such as '%snake' but found "
                    + pattern.describe(), pattern.start());
        }
        next();
        return build(() -> negated ? Expressions.notLike(operand.expr(), pattern.text())
                : Expressions.like(operand.expr(), pattern.text()), keyword.start(), operand.offset());
    }

    private Parsed additive() {
        Parsed left = multiplicative();
        while (peek().isSymbol("+") || peek().isSymbol("-")) {
            Token op = next();
            left = arithmetic(op, left, multiplicative());
        }
        return left;
    }

    private Parsed multiplicative() {
        Parsed left = unary();
        while (peek().isSymbol("*") || peek().isSymbol("/")) {
            Token op = next();
            left = arithmetic(op, left, unary());
        }
        return left;
    }

    private Parsed arithmetic(Token token, Parsed left, Parsed right) {
        ArithmeticOperator op = switch (token.text()) {
            case "+" -> ArithmeticOperator.ADD;
            case "-" -> ArithmeticOperator.SUBTRACT;
            case "*" -> ArithmeticOperator.MULTIPLY;
            default -> ArithmeticOperator.DIVIDE;
        };
        // Point a division by a zero literal at the zero, everything else at the operator.
        boolean zeroDivisor = op == ArithmeticOperator.DIVIDE && right.expr() instanceof Literal l
                && l.value() instanceof Number && Scalars.isZero(l.value());
        return build(() -> Expressions.arithmetic(op, left.expr(), right.expr()),
                zeroDivisor ? right.offset() : token.start(), left.offset());
    }

    private Parsed unary() {
        List<Token> minuses = new ArrayList<>();
        while (peek().isSymbol("-")) {
            minuses.add(next());
        }
        if (minuses.isEmpty()) {
            return primary();
        }
        int remaining = minuses.size();
        Parsed operand;
        if (peek().type() == Type.INTEGER) {
            // Read "-9223372036854775808" as one literal: its magnitude alone does not fit in a BIGINT.
            Token number = next();
            Token minus = minuses.get(--remaining);
            operand = leaf(Expressions.lit(parseLong("-" + number.text(), minus.start())), minus.start());
        } else {
            operand = primary();
        }
        for (int i = remaining - 1; i >= 0; i--) {
            Expression inner = operand.expr();
            int offset = minuses.get(i).start();
            operand = build(() -> Expressions.negate(inner), offset, offset);
        }
        return operand;
    }

    private Parsed primary() {
        Token t = next();
        switch (t.type()) {
            case INTEGER:
                return leaf(Expressions.lit(parseLong(t.text(), t.start())), t.start());
            case DECIMAL:
                return leaf(Expressions.lit(Double.parseDouble(t.text())), t.start());
            case STRING:
                return leaf(Expressions.lit(t.text()), t.start());
            case QUOTED_IDENTIFIER:
                return build(() -> Expressions.column(t.text()), t.start(), t.start());
            case WORD:
                return word(t);
            case SYMBOL:
                if (t.isSymbol("(")) {
                    enter(t);
                    Parsed inner = or();
                    if (!peek().isSymbol(")")) {
                        throw syntax("')' to close '(' at " + where(t.start()), peek());
                    }
                    next();
                    nesting--;
                    return new Parsed(inner.expr(), t.start());
                }
                throw syntax("an expression", t);
            default:
                throw syntax("an expression", t);
        }
    }

    private Parsed word(Token t) {
        String upper = t.text().toUpperCase(Locale.ROOT);
        switch (upper) {
            case "TRUE":
                return leaf(Expressions.alwaysTrue(), t.start());
            case "FALSE":
                return leaf(Expressions.alwaysFalse(), t.start());
            case "NULL":
                throw error("Unsupported NULL literal", "expected IS NULL or IS NOT NULL to test for NULL but"
                        + " found NULL as a value", t.start());
            case "CAST":
                return cast(t);
            default:
                break;
        }
        if (isReserved(t)) {
            throw syntax("an expression", t);
        }
        if (peek().isSymbol("(")) {
            throw error("Unknown function", "expected a column, a literal or CAST(... AS BIGINT|DOUBLE) but found"
                    + " function " + t.text() + "(...); functions are not supported", t.start());
        }
        return build(() -> Expressions.column(t.text()), t.start(), t.start());
    }

    private Parsed cast(Token keyword) {
        enter(keyword);
        if (!peek().isSymbol("(")) {
            throw syntax("'(' after CAST", peek());
        }
        next();
        Parsed operand = or();
        if (!peek().isKeyword("AS")) {
            throw syntax("AS in CAST(... AS BIGINT|DOUBLE)", peek());
        }
        next();
        Token type = next();
        ColumnType target;
        if (type.isKeyword("BIGINT")) {
            target = ColumnType.BIGINT;
        } else if (type.isKeyword("DOUBLE")) {
            target = ColumnType.DOUBLE;
        } else {
            throw error("Unsupported CAST type", "expected BIGINT or DOUBLE but found " + type.describe(),
                    type.start());
        }
        if (!peek().isSymbol(")")) {
            throw syntax("')' to close CAST( at " + where(keyword.start()), peek());
        }
        next();
        nesting--;
        return build(() -> Expressions.cast(operand.expr(), target), keyword.start(), keyword.start());
    }

    private long parseLong(String digits, int offset) {
        try {
            return Long.parseLong(digits);
        } catch (NumberFormatException e) {
            throw error("Number out of range", digits + " does not fit in a BIGINT (" + Long.MIN_VALUE + " to "
                    + Long.MAX_VALUE + ")", offset);
        }
    }

    private static ComparisonOperator comparisonOperator(Token t) {
        if (t.type() != Type.SYMBOL) {
            return null;
        }
        return switch (t.text()) {
            case "=" -> ComparisonOperator.EQUAL;
            case "<>", "!=" -> ComparisonOperator.NOT_EQUAL;
            case "<" -> ComparisonOperator.LESS_THAN;
            case "<=" -> ComparisonOperator.LESS_THAN_OR_EQUAL;
            case ">" -> ComparisonOperator.GREATER_THAN;
            case ">=" -> ComparisonOperator.GREATER_THAN_OR_EQUAL;
            default -> null;
        };
    }

    private Parsed leaf(Expression e, int offset) {
        return build(() -> e, offset, offset);
    }

    /**
     * Builds a node and type-checks it against the schema if there is one; any {@link PredicateException} (a type
     * error, or a tree deeper than {@link Query#MAX_DEPTH}, which the nodes refuse) becomes a
     * {@link PredicateParseException} at {@code errorOffset}.
     */
    private Parsed build(Supplier<Expression> factory, int errorOffset, int startOffset) {
        Expression e;
        try {
            e = factory.get();
            if (binder != null) {
                binder.typeOf(e);
            }
        } catch (PredicateParseException ex) {
            throw ex;
        } catch (PredicateException ex) {
            throw at(ex, errorOffset);
        }
        return new Parsed(e, startOffset);
    }

    private void requireBoolean(Parsed p, String what) {
        try {
            Kind kind = binder != null ? Kind.of(binder.typeOf(p.expr())) : Expressions.kindOf(p.expr());
            TypeRules.requireBoolean(what, p.expr(), kind);
        } catch (PredicateParseException ex) {
            throw ex;
        } catch (PredicateException ex) {
            throw at(ex, p.offset());
        }
    }

    /**
     * Bounds this parser's own recursion: {@code ((((x = 1))))} is a shallow tree, but each parenthesis (and each
     * CAST) is a level of recursion here.
     */
    private void enter(Token t) {
        if (++nesting > Query.MAX_DEPTH) {
            throw error("Expression too deep", "expected at most " + Query.MAX_DEPTH + " levels of nested"
                    + " parentheses and CASTs (Query.MAX_DEPTH) but found " + nesting, t.start());
        }
    }

    /** Whether {@code t} is a word that names no column unless double-quoted. */
    boolean isReserved(Token t) {
        if (t.type() != Type.WORD) {
            return false;
        }
        String upper = t.text().toUpperCase(Locale.ROOT);
        return SqlPrinter.RESERVED.contains(upper) || statement && SqlPrinter.STATEMENT_KEYWORDS.contains(upper);
    }

    /** The schema columns are resolved against; null when there is none. */
    Binder binder() {
        return binder;
    }

    Token peek() {
        return tokens.get(index);
    }

    /** The token after the next one (or END). */
    Token peekSecond() {
        return tokens.get(Math.min(index + 1, tokens.size() - 1));
    }

    Token next() {
        Token t = tokens.get(index);
        if (t.type() != Type.END) {
            index++;
        }
        return t;
    }

    /** How messages name a position: {@code column 5}, or {@code line 2, column 3} in multi-line input. */
    String where(int offset) {
        int lineStart = sql.lastIndexOf('\n', offset - 1) + 1;
        int column = offset - lineStart + 1;
        if (sql.indexOf('\n') < 0) {
            return "column " + column;
        }
        int line = 1;
        for (int i = 0; i < lineStart; i++) {
            if (sql.charAt(i) == '\n') {
                line++;
            }
        }
        return "line " + line + ", column " + column;
    }

    PredicateParseException syntax(String expected, Token found) {
        return error("Syntax error", "expected " + expected + " but found " + found.describe(), found.start());
    }

    PredicateParseException error(String reason, String detail, int offset) {
        return new PredicateParseException(reason, detail, sql, offset, null);
    }

    /** Re-raises a build or bind error at a position; its message is "Reason: detail". */
    PredicateParseException at(PredicateException ex, int offset) {
        String message = ex.getMessage();
        int colon = message.indexOf(": ");
        String reason = colon < 0 ? "Invalid predicate" : message.substring(0, colon);
        String detail = colon < 0 ? message : message.substring(colon + 2);
        return new PredicateParseException(reason, detail, sql, offset, ex);
    }
}
