package io.layoutbench.api.predicate;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Prints expressions as SQL with as few parentheses as the parser's precedence allows, so that
 * {@code Query.parse(e.toString()).where().equals(e)}.
 */
final class SqlPrinter implements ExpressionVisitor<Void> {

    /** Words the parser treats as keywords; columns with these names print double-quoted. */
    static final Set<String> RESERVED = Set.of(
            "AND", "OR", "NOT", "IN", "LIKE", "IS", "NULL", "CAST", "AS", "LIMIT", "TRUE", "FALSE");

    /**
     * The clause keywords of a SELECT statement: reserved inside a statement, plain names in a WHERE predicate
     * alone (a dataset may well have a column called {@code order}). Columns with these names print double-quoted
     * too, so that a printed predicate reads back inside a statement.
     */
    static final Set<String> STATEMENT_KEYWORDS = Set.of(
            "SELECT", "FROM", "WHERE", "GROUP", "ORDER", "BY", "ASC", "DESC");

    private static final Pattern PLAIN_IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    // Precedence levels, loosest first; they mirror the parser's grammar.
    static final int OR = 1;
    static final int AND = 2;
    static final int NOT = 3;
    static final int PREDICATE = 4;
    static final int ADDITIVE = 5;
    static final int MULTIPLICATIVE = 6;
    static final int UNARY = 7;
    static final int PRIMARY = 8;

    private final StringBuilder out = new StringBuilder();
    /** Characters after which nothing more is printed. */
    private final int limit;

    private SqlPrinter(int limit) {
        this.limit = limit;
    }

    static String print(Expression expression) {
        return print(expression, Integer.MAX_VALUE);
    }

    /**
     * The first {@code limit} characters of the SQL, or a few more: for error messages, at a cost bounded by the
     * limit, not by the tree (a 10,000-value IN list, or a tree whose shared subtrees print 2^100 characters).
     */
    static String print(Expression expression, int limit) {
        SqlPrinter printer = new SqlPrinter(limit);
        printer.printNode(expression);
        return printer.out.length() <= limit ? printer.out.toString() : printer.out.substring(0, limit);
    }

    private void printNode(Expression e) {
        if (out.length() < limit) {
            e.accept(this);
        }
    }

    /** {@code s} as a SQL string literal. */
    static String quote(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** {@code name} as a SQL identifier, double-quoted when it is a keyword or not a plain identifier. */
    static String identifier(String name) {
        if (PLAIN_IDENTIFIER.matcher(name).matches() && !isKeyword(name)) {
            return name;
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /** Whether {@code word} is a keyword of predicates or of statements, ignoring case. */
    static boolean isKeyword(String word) {
        String upper = word.toUpperCase(Locale.ROOT);
        return RESERVED.contains(upper) || STATEMENT_KEYWORDS.contains(upper);
    }

    static int precedence(Expression e) {
        if (e instanceof Or) {
            return OR;
        } else if (e instanceof And) {
            return AND;
        } else if (e instanceof Not) {
            return NOT;
        } else if (e instanceof Comparison || e instanceof In || e instanceof Like || e instanceof IsNull) {
            return PREDICATE;
        } else if (e instanceof Arithmetic a) {
            return a.operator().precedence();
        } else if (e instanceof Negate) {
            return UNARY;
        } else if (e instanceof Literal l && l.value() instanceof Number n && n.doubleValue() < 0
                || e instanceof Literal l2 && l2.value() instanceof Double d && d.equals(-0.0d)) {
            // A negative number prints with a leading minus, which the parser reads as unary minus.
            return UNARY;
        }
        return PRIMARY;
    }

    /** Prints {@code child}, in parentheses unless it binds at least as tightly as {@code minimum}. */
    private void operand(Expression child, int minimum) {
        if (precedence(child) < minimum) {
            out.append('(');
            printNode(child);
            out.append(')');
        } else {
            printNode(child);
        }
    }

    private void junction(List<Expression> operands, String keyword, int level) {
        for (int i = 0; i < operands.size() && out.length() < limit; i++) {
            if (i > 0) {
                out.append(' ').append(keyword).append(' ');
            }
            operand(operands.get(i), level + 1);
        }
    }

    @Override
    public Void visitColumn(ColumnRef column) {
        out.append(identifier(column.name()));
        return null;
    }

    @Override
    public Void visitLiteral(Literal literal) {
        Object value = literal.value();
        if (value instanceof String s) {
            out.append(quote(s));
        } else if (value instanceof Boolean b) {
            out.append(b ? "TRUE" : "FALSE");
        } else {
            // Double.toString always has a '.' or an exponent, so the parser reads it back as a DOUBLE.
            out.append(value);
        }
        return null;
    }

    @Override
    public Void visitArithmetic(Arithmetic arithmetic) {
        int level = arithmetic.operator().precedence();
        operand(arithmetic.left(), level);
        out.append(' ').append(arithmetic.operator().symbol()).append(' ');
        // Left-associative: a right operand of the same level needs parentheses, a - (b - c).
        operand(arithmetic.right(), level + 1);
        return null;
    }

    @Override
    public Void visitNegate(Negate negate) {
        out.append('-');
        if (negate.operand() instanceof Negate) {
            // "--x" would start a comment.
            out.append('(');
            printNode(negate.operand());
            out.append(')');
        } else {
            operand(negate.operand(), UNARY);
        }
        return null;
    }

    @Override
    public Void visitCast(Cast cast) {
        out.append("CAST(");
        printNode(cast.operand());
        out.append(" AS ").append(cast.type().name()).append(')');
        return null;
    }

    @Override
    public Void visitComparison(Comparison comparison) {
        operand(comparison.left(), ADDITIVE);
        out.append(' ').append(comparison.operator().symbol()).append(' ');
        operand(comparison.right(), ADDITIVE);
        return null;
    }

    @Override
    public Void visitIn(In in) {
        operand(in.operand(), ADDITIVE);
        out.append(in.negated() ? " NOT IN (" : " IN (");
        for (int i = 0; i < in.values().size() && out.length() < limit; i++) {
            if (i > 0) {
                out.append(", ");
            }
            printNode(in.values().get(i));
        }
        out.append(')');
        return null;
    }

    @Override
    public Void visitLike(Like like) {
        operand(like.operand(), ADDITIVE);
        out.append(like.negated() ? " NOT LIKE " : " LIKE ").append(quote(like.pattern()));
        return null;
    }

    @Override
    public Void visitIsNull(IsNull isNull) {
        operand(isNull.operand(), ADDITIVE);
        out.append(isNull.negated() ? " IS NOT NULL" : " IS NULL");
        return null;
    }

    @Override
    public Void visitAnd(And and) {
        junction(and.operands(), "AND", AND);
        return null;
    }

    @Override
    public Void visitOr(Or or) {
        junction(or.operands(), "OR", OR);
        return null;
    }

    @Override
    public Void visitNot(Not not) {
        out.append("NOT ");
        operand(not.operand(), NOT);
        return null;
    }
}
