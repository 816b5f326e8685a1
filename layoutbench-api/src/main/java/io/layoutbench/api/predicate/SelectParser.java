package io.layoutbench.api.predicate;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.Parser.Parsed;
import io.layoutbench.api.predicate.SelectStatement.Aggregate;
import io.layoutbench.api.predicate.SelectStatement.AllColumns;
import io.layoutbench.api.predicate.SelectStatement.ColumnItem;
import io.layoutbench.api.predicate.SelectStatement.Function;
import io.layoutbench.api.predicate.SelectStatement.Item;
import io.layoutbench.api.predicate.SelectStatement.SortKey;
import io.layoutbench.api.predicate.Token.Type;
import io.layoutbench.api.predicate.TypeRules.Kind;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Recursive-descent parser for a {@link SelectStatement}. It reads the clauses and leaves every expression in them to
 * {@link Parser}, on the same tokens, so positions count from the start of the statement:
 *
 * <pre>
 * statement := SELECT item (',' item)* FROM name [WHERE or] [GROUP BY column (',' column)*]
 *              [ORDER BY key [ASC | DESC] (',' key [ASC | DESC])*] [LIMIT integer] [';'] END
 * item      := '*' | key
 * key       := function '(' ('*' | argument) ')' | column   -- '*' in COUNT only
 * function  := COUNT | SUM | MIN | MAX | AVG                  -- a function only when '(' follows
 * argument  := additive                                      -- a value reading at least one column
 * column    := identifier | "quoted identifier"             -- parsed as a value, so 'price + 1' is named in the error
 * name      := identifier | "quoted identifier"
 * </pre>
 *
 * <p>With a schema, columns resolve and aggregates type-check as they are read; when the statement aggregates, every
 * column outside an aggregate is checked to be grouped once the whole statement is read.
 */
final class SelectParser {
    /** Reserved words that start a value, which {@link #column} parses to name it in the error. */
    private static final Set<String> VALUE_KEYWORDS = Set.of("CAST", "TRUE", "FALSE", "NULL");

    private final Parser parser;
    private final MetadataSchema schema;

    /** An item or key and the offset where its text starts. */
    private record Placed(Item item, int offset) {
    }

    private SelectParser(String sql, MetadataSchema schema) {
        this.parser = new Parser(sql, schema, true);
        this.schema = schema;
    }

    /** Parses {@code sql}; when {@code schema} is not null, resolves columns and checks types as it goes. */
    static SelectStatement parse(String sql, MetadataSchema schema) {
        return new SelectParser(sql, schema).statement();
    }

    private SelectStatement statement() {
        expectKeyword("SELECT", "SELECT");
        List<Placed> items = new ArrayList<>();
        do {
            items.add(key(items.isEmpty() ? "after SELECT" : "after ','", true));
        } while (acceptSymbol(","));
        expectKeyword("FROM", "',' or FROM after the SELECT list");
        String from = name();
        String following = "WHERE, GROUP BY, ORDER BY, LIMIT or end of input";

        Expression where = Expressions.alwaysTrue();
        if (acceptKeyword("WHERE")) {
            where = parser.condition();
            following = "AND, OR, GROUP BY, ORDER BY, LIMIT or end of input";
        }
        List<Parsed> groupBy = new ArrayList<>();
        if (acceptKeyword("GROUP")) {
            expectKeyword("BY", "BY after GROUP");
            do {
                groupBy.add(column("a column " + (groupBy.isEmpty() ? "after GROUP BY" : "after ','")));
            } while (acceptSymbol(","));
            following = "',', ORDER BY, LIMIT or end of input";
        }
        List<Placed> orderKeys = new ArrayList<>();
        List<SortKey> orderBy = new ArrayList<>();
        if (acceptKeyword("ORDER")) {
            expectKeyword("BY", "BY after ORDER");
            do {
                Placed key = key(orderKeys.isEmpty() ? "after ORDER BY" : "after ','", false);
                boolean descending = acceptKeyword("DESC");
                boolean directed = descending || acceptKeyword("ASC");
                orderKeys.add(key);
                orderBy.add(new SortKey(key.item(), descending));
                following = (directed ? "" : "ASC, DESC, ") + "',', LIMIT or end of input";
            } while (acceptSymbol(","));
        }
        OptionalLong limit = OptionalLong.empty();
        if (acceptKeyword("LIMIT")) {
            limit = OptionalLong.of(parser.limit());
            following = "end of input after LIMIT " + limit.getAsLong();
        }
        if (acceptSymbol(";")) {
            following = "end of input after ';'";
        }
        if (parser.peek().type() != Type.END) {
            throw parser.syntax(following, parser.peek());
        }
        checkGrouping(items, groupBy, orderKeys);
        return new SelectStatement(items.stream().map(Placed::item).toList(), from, new Query(where, limit),
                groupBy.stream().map(g -> (ColumnRef) g.expr()).toList(), orderBy);
    }

    /** An item of the SELECT list ({@code star} allowed) or an ORDER BY key; {@code after} says where it stands. */
    private Placed key(String after, boolean star) {
        Token t = parser.peek();
        if (star && t.isSymbol("*")) {
            parser.next();
            return new Placed(new AllColumns(), t.start());
        }
        if (t.type() == Type.WORD && !parser.isReserved(t) && parser.peekSecond().isSymbol("(")) {
            return aggregate(t);
        }
        Parsed column = column((star ? "a column, '*' or an aggregate " : "a column or an aggregate ") + after);
        return new Placed(new ColumnItem((ColumnRef) column.expr()), column.offset());
    }

    private Placed aggregate(Token name) {
        Function function = Function.named(name.text()).orElseThrow(() -> parser.error("Unknown aggregate",
                "expected COUNT, SUM, MIN, MAX or AVG but found " + name.text() + "(...)", name.start()));
        parser.next();
        parser.next();
        Optional<Expression> argument = Optional.empty();
        Token star = parser.peek();
        if (star.isSymbol("*") && function == Function.COUNT) {
            parser.next();
        } else if (star.isSymbol("*")) {
            throw parser.error("Invalid aggregate", "expected a column in " + function + "(...) but found '*';"
                    + " only COUNT(*) counts rows", star.start());
        } else {
            Parsed value = argument("a column" + (function == Function.COUNT ? " or '*'" : "") + " in " + function
                    + "(...)");
            checkType(function, value.expr(), name.start());
            argument = Optional.of(value.expr());
        }
        if (!acceptSymbol(")")) {
            throw parser.syntax("')' to close " + function + "( at " + parser.where(name.start()), parser.peek());
        }
        return new Placed(new Aggregate(function, argument), name.start());
    }

    /**
     * A column, where {@code expected} says what may stand. What looks like a value is parsed as one, so that
     * {@code price + 1} is named in the error (and the column resolved against the schema, if any).
     */
    private Parsed column(String expected) {
        Token t = parser.peek();
        boolean value = switch (t.type()) {
            case WORD -> !parser.isReserved(t) || VALUE_KEYWORDS.contains(t.text().toUpperCase(Locale.ROOT));
            case SYMBOL -> t.isSymbol("(") || t.isSymbol("-");
            case END -> false;
            default -> true;
        };
        if (!value) {
            throw parser.syntax(expected, t);
        }
        Parsed parsed = parser.value();
        if (!(parsed.expr() instanceof ColumnRef)) {
            throw parser.error("Unsupported expression", "expected " + expected + " but found "
                    + TypeRules.excerpt(parsed.expr()) + "; only columns are supported here", parsed.offset());
        }
        return parsed;
    }

    /**
     * An aggregate's argument: a column or arithmetic on columns ({@code l_extendedprice * (1 - l_discount)}), as
     * TPC-H aggregates them; a value without a column ({@code SUM(1)}) is refused, since it says nothing of the rows.
     */
    private Parsed argument(String expected) {
        Token t = parser.peek();
        if (t.type() == Type.END || t.type() == Type.WORD && parser.isReserved(t)
                && !VALUE_KEYWORDS.contains(t.text().toUpperCase(Locale.ROOT))
                || t.type() == Type.SYMBOL && !t.isSymbol("(") && !t.isSymbol("-")) {
            throw parser.syntax(expected, t);
        }
        Parsed parsed = parser.value();
        if (!readsColumn(parsed.expr())) {
            throw parser.error("Unsupported expression", "expected " + expected + " but found "
                    + TypeRules.excerpt(parsed.expr()) + ", which reads no column", parsed.offset());
        }
        return parsed;
    }

    private static boolean readsColumn(Expression expression) {
        boolean[] found = {false};
        expression.accept(new ExpressionVisitor.Walker() {
            @Override
            public Void visitColumn(ColumnRef column) {
                found[0] = true;
                return null;
            }
        });
        return found[0];
    }

    private String name() {
        Token t = parser.next();
        if (t.type() != Type.QUOTED_IDENTIFIER && (t.type() != Type.WORD || parser.isReserved(t))) {
            throw parser.syntax("an object name after FROM", t);
        }
        if (parser.peek().isSymbol(",")) {
            throw parser.syntax("one object name after FROM (joins are not supported)", parser.peek());
        }
        return t.text();
    }

    private void checkType(Function function, Expression argument, int offset) {
        if (parser.binder() == null) {
            return;
        }
        try {
            TypeRules.aggregate(function, argument, Kind.of(parser.binder().typeOf(argument)));
        } catch (PredicateException e) {
            throw parser.at(e, offset);
        }
    }

    /** When the statement aggregates, every column it selects or orders by must be grouped. */
    private void checkGrouping(List<Placed> items, List<Parsed> groupBy, List<Placed> orderKeys) {
        List<Placed> keys = new ArrayList<>(items);
        keys.addAll(orderKeys);
        Optional<Placed> aggregate = keys.stream().filter(k -> k.item() instanceof Aggregate).findFirst();
        if (aggregate.isEmpty() && groupBy.isEmpty()) {
            return;
        }
        String because = groupBy.isEmpty()
                ? aggregate.get().item() + " at " + parser.where(aggregate.get().offset()) + " aggregates the rows"
                : "the rows are grouped by " + groupBy.stream().map(g -> g.expr().toString())
                        .collect(Collectors.joining(", "));
        for (Placed key : keys) {
            if (key.item() instanceof AllColumns) {
                throw parser.error("Ungrouped column", "'*' selects columns that are neither in GROUP BY nor inside"
                        + " an aggregate, as they must be since " + because, key.offset());
            } else if (key.item() instanceof ColumnItem c && groupBy.stream().noneMatch(g -> same(g, c.column()))) {
                throw parser.error("Ungrouped column", c + " is neither in GROUP BY nor inside an aggregate, as it"
                        + " must be since " + because, key.offset());
            }
        }
    }

    private boolean same(Parsed grouped, ColumnRef column) {
        String name = ((ColumnRef) grouped.expr()).name();
        return schema == null ? name.equalsIgnoreCase(column.name())
                : schema.indexOf(name).equals(schema.indexOf(column.name()));
    }

    private boolean acceptKeyword(String keyword) {
        if (parser.peek().isKeyword(keyword)) {
            parser.next();
            return true;
        }
        return false;
    }

    private boolean acceptSymbol(String symbol) {
        if (parser.peek().isSymbol(symbol)) {
            parser.next();
            return true;
        }
        return false;
    }

    private void expectKeyword(String keyword, String expected) {
        if (!acceptKeyword(keyword)) {
            throw parser.syntax(expected, parser.peek());
        }
    }
}
