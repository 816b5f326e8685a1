package io.layoutbench.api.predicate;

import static io.layoutbench.api.predicate.Expressions.column;
import static io.layoutbench.api.predicate.Expressions.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.fail;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.SelectStatement.Aggregate;
import io.layoutbench.api.predicate.SelectStatement.AllColumns;
import io.layoutbench.api.predicate.SelectStatement.ColumnItem;
import io.layoutbench.api.predicate.SelectStatement.Function;
import io.layoutbench.api.predicate.SelectStatement.SortKey;

import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The SELECT grammar around the predicate language: every item kind and clause, names, printing, and malformed
 * statements, each failing at the right 1-based position with what was expected and what was found.
 */
class SelectStatementTest {
    private static final MetadataSchema SCHEMA = new MetadataSchema(List.of(
            new Column("price", ColumnType.DOUBLE), new Column("qty", ColumnType.BIGINT),
            new Column("note", ColumnType.STRING, List.of("remark")), new Column("count", ColumnType.BIGINT),
            new Column("order", ColumnType.STRING)));
    private static final String KNOWN = "known columns: price, qty, note (remark), count, order";

    @Test
    void everyItemKind() {
        SelectStatement s = SelectStatement.parse("SELECT *, price, \"qty\", remark, count FROM t", SCHEMA);
        assertThat(s.items()).containsExactly(new AllColumns(), item("price"), item("qty"), item("remark"),
                item("count"));
        assertThat(s.from()).isEqualTo("t");
        assertThat(s.where()).isEqualTo(Query.of(Expressions.alwaysTrue()));
        assertThat(s.groupBy()).isEmpty();
        assertThat(s.orderBy()).isEmpty();

        SelectStatement aggregates = SelectStatement.parse(
                "SELECT COUNT(*), COUNT(note), SUM(qty), MIN(note), MAX(price), AVG(qty), SUM(count) FROM t", SCHEMA);
        assertThat(aggregates.items()).containsExactly(new Aggregate(Function.COUNT, Optional.empty()),
                aggregate(Function.COUNT, "note"), aggregate(Function.SUM, "qty"), aggregate(Function.MIN, "note"),
                aggregate(Function.MAX, "price"), aggregate(Function.AVG, "qty"), aggregate(Function.SUM, "count"));
    }

    @Test
    void keywordsIgnoreCase() {
        SelectStatement s = SelectStatement.parse(
                "select PRICE, Qty from t where note = 'a, FROM b' and qty < 3 limit 5;", SCHEMA);
        assertThat(s.items()).containsExactly(item("PRICE"), item("Qty"));
        assertThat(s.where()).isEqualTo(Query.of(Expressions.and(Expressions.equal(column("note"), lit("a, FROM b")),
                Expressions.lessThan(column("qty"), lit(3)))).withLimit(5));
        assertThat(SelectStatement.parse("sElEcT count(*), Sum(qty), avg(price) FrOm t GROUP by qty Order By qty desc",
                SCHEMA)).hasToString("SELECT COUNT(*), SUM(qty), AVG(price) FROM t"
                + " GROUP BY qty ORDER BY qty DESC");
    }

    @Test
    void quotedNamesAndKeywordsAsNames() {
        SelectStatement s = SelectStatement.parse("SELECT \"order\", \"count\", \"odd\"\"name\" FROM \"my table\"");
        assertThat(s.items()).containsExactly(item("order"), item("count"), item("odd\"name"));
        assertThat(s.from()).isEqualTo("my table");
        // Aggregate names are not reserved; the clause keywords are, inside a statement only.
        assertThat(SelectStatement.parse("SELECT count FROM t WHERE count > 1", SCHEMA).items())
                .containsExactly(item("count"));
        assertThat(Query.parse("order = 'a'", SCHEMA).where()).isEqualTo(Expressions.equal(column("order"), lit("a")));
        assertThat(SelectStatement.parse("SELECT \"order\" FROM t WHERE \"order\" = 'a' ORDER BY \"order\"", SCHEMA))
                .hasToString("SELECT \"order\" FROM t WHERE \"order\" = 'a' ORDER BY \"order\"");
    }

    @Test
    void limitWithAndWithoutWhere() {
        assertThat(SelectStatement.parse("SELECT * FROM t LIMIT 2", SCHEMA).where())
                .isEqualTo(Query.of(Expressions.alwaysTrue()).withLimit(2));
        assertThat(SelectStatement.parse("SELECT qty FROM t WHERE qty > 1 LIMIT 0", SCHEMA).where())
                .isEqualTo(Query.of(Expressions.greaterThan(column("qty"), lit(1))).withLimit(0));
        assertThat(SelectStatement.parse("SELECT qty FROM t WHERE qty > 1", SCHEMA).where().limit()).isEmpty();
        assertThat(SelectStatement.parse("SELECT qty FROM t ;", SCHEMA).where().limit()).isEmpty();
    }

    @Test
    void groupByAndOrderByParseIntoTheStatement() {
        SelectStatement s = SelectStatement.parse("SELECT note, qty, COUNT(*), SUM(price) FROM lineitem"
                + " WHERE price > 0 GROUP BY remark, QTY ORDER BY note, SUM(price) DESC, qty ASC LIMIT 3", SCHEMA);
        assertThat(s.groupBy()).containsExactly(column("remark"), column("QTY"));
        assertThat(s.orderBy()).containsExactly(new SortKey(item("note"), false),
                new SortKey(aggregate(Function.SUM, "price"), true), new SortKey(item("qty"), false));
        assertThat(s.where().limit()).isEqualTo(OptionalLong.of(3));
        assertThat(s).hasToString("SELECT note, qty, COUNT(*), SUM(price) FROM lineitem WHERE price > 0"
                + " GROUP BY remark, QTY ORDER BY note, SUM(price) DESC, qty LIMIT 3");
        // Without a schema, grouping compares names ignoring case (no aliases to resolve).
        assertThat(SelectStatement.parse("SELECT Label, COUNT(*) FROM t GROUP BY label").groupBy())
                .containsExactly(column("label"));
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "SELECT * FROM t",
            "SELECT price, \"order\" FROM \"my table\" WHERE note LIKE 'a%' OR qty IN (1, 2) LIMIT 7",
            "SELECT COUNT(*), AVG(price) FROM t WHERE \"order\" IS NOT NULL",
            "SELECT note, MAX(price) FROM t GROUP BY note ORDER BY MAX(price) DESC, note LIMIT 1",
            "SELECT note, SUM(price * (1 - qty)), AVG(-price), MIN(qty + 1) FROM t GROUP BY note"
                    + " ORDER BY SUM(price * (1 - qty))",
            "SELECT qty FROM t LIMIT 0"})
    void printedStatementsParseBackToEqualOnes(String sql) {
        SelectStatement s = SelectStatement.parse(sql, SCHEMA);
        assertThat(s).hasToString(sql);
        assertThat(SelectStatement.parse(s.toString(), SCHEMA)).isEqualTo(s);
    }

    @Test
    void theWhereClauseIsThePredicateLanguage() {
        for (int i = 0; i < 2_000; i++) {
            long seed = 0x5e1ec7L * 31 + i;
            RandomPredicates gen = new RandomPredicates(new Random(seed));
            Query query = Query.of(gen.predicate(1 + new Random(seed).nextInt(5))).withLimit(i);
            String sql = "SELECT * FROM t WHERE " + query;
            try {
                assertThat(SelectStatement.parse(sql, gen.schema()).where()).as("seed %d: %s", seed, sql)
                        .isEqualTo(Query.parse(query.toString(), gen.schema()));
            } catch (PredicateException e) {
                fail("seed " + seed + ": printed predicate does not parse in a statement: " + sql, e);
            }
        }
    }

    static Stream<Arguments> malformed() {
        return Stream.of(
                // Clauses missing, doubled or out of place
                error("", 1, "Syntax error at column 1: expected SELECT but found end of input"),
                error("DELETE FROM t", 1, "Syntax error at column 1: expected SELECT but found identifier DELETE"),
                error("SELECT price", 13, "Syntax error at column 13: expected ',' or FROM after the SELECT list but"
                        + " found end of input"),
                error("SELECT price t", 14, "Syntax error at column 14: expected ',' or FROM after the SELECT list but"
                        + " found identifier t"),
                error("SELECT price FROM", 18, "Syntax error at column 18: expected an object name after FROM but"
                        + " found end of input"),
                error("SELECT price FROM a, b", 20, "Syntax error at column 20: expected one object name after FROM"
                        + " (joins are not supported) but found ','"),
                error("SELECT price FROM a b", 21, "Syntax error at column 21: expected WHERE, GROUP BY, ORDER BY,"
                        + " LIMIT or end of input but found identifier b"),
                error("SELECT price FROM t WHERE qty > 1 garbage", 35, "Syntax error at column 35: expected AND, OR,"
                        + " GROUP BY, ORDER BY, LIMIT or end of input but found identifier garbage"),
                error("SELECT price FROM t LIMIT 5 WHERE qty > 1", 29, "Syntax error at column 29: expected end of"
                        + " input after LIMIT 5 but found keyword WHERE"),
                error("SELECT price FROM t; SELECT qty FROM t", 22, "Syntax error at column 22: expected end of input"
                        + " after ';' but found keyword SELECT"),
                error("SELECT price FROM t GROUP price", 27, "Syntax error at column 27: expected BY after GROUP but"
                        + " found identifier price"),
                error("SELECT price FROM t ORDER BY price DESC qty", 41, "Syntax error at column 41: expected ',',"
                        + " LIMIT or end of input but found identifier qty"),
                // The SELECT list
                error("SELECT FROM t", 8, "Syntax error at column 8: expected a column, '*' or an aggregate after"
                        + " SELECT but found keyword FROM"),
                error("SELECT price, FROM t", 15, "Syntax error at column 15: expected a column, '*' or an aggregate"
                        + " after ',' but found keyword FROM"),
                error("SELECT order FROM t", 8, "Syntax error at column 8: expected a column, '*' or an aggregate"
                        + " after SELECT but found keyword ORDER"),
                error("SELECT price + 1 FROM t", 8, "Unsupported expression at column 8: expected a column, '*' or an"
                        + " aggregate after SELECT but found price + 1; only columns are supported here"),
                error("SELECT nope FROM t", 8, "Unknown column at column 8: 'nope' is not a column of this dataset; "
                        + KNOWN),
                // Aggregates and their parentheses
                error("SELECT MEDIAN(price) FROM t", 8, "Unknown aggregate at column 8: expected COUNT, SUM, MIN, MAX"
                        + " or AVG but found MEDIAN(...)"),
                error("SELECT SUM(*) FROM t", 12, "Invalid aggregate at column 12: expected a column in SUM(...) but"
                        + " found '*'; only COUNT(*) counts rows"),
                error("SELECT COUNT() FROM t", 14, "Syntax error at column 14: expected a column or '*' in COUNT(...)"
                        + " but found ')'"),
                error("SELECT COUNT(* FROM t", 16, "Syntax error at column 16: expected ')' to close COUNT( at column"
                        + " 8 but found keyword FROM"),
                error("SELECT SUM(qty)) FROM t", 16, "Syntax error at column 16: expected ',' or FROM after the SELECT"
                        + " list but found ')'"),
                error("SELECT SUM(2 * 3) FROM t", 12, "Unsupported expression at column 12: expected a column in"
                        + " SUM(...) but found 6, which reads no column"),
                error("SELECT AVG(note) FROM t", 8, "Type mismatch at column 8: AVG needs a numeric column but note is"
                        + " STRING"),
                // Grouping
                error("SELECT price, COUNT(*) FROM t", 8, "Ungrouped column at column 8: price is neither in GROUP BY"
                        + " nor inside an aggregate, as it must be since COUNT(*) at column 15 aggregates the rows"),
                error("SELECT *, COUNT(*) FROM t", 8, "Ungrouped column at column 8: '*' selects columns that are"
                        + " neither in GROUP BY nor inside an aggregate, as they must be since COUNT(*) at column 11"
                        + " aggregates the rows"),
                error("SELECT note, price FROM t GROUP BY remark", 14, "Ungrouped column at column 14: price is"
                        + " neither in GROUP BY nor inside an aggregate, as it must be since the rows are grouped by"
                        + " remark"),
                // The WHERE clause and LIMIT, positioned in the whole statement
                error("SELECT price FROM t WHERE qty <", 32, "Syntax error at column 32: expected an expression but"
                        + " found end of input"),
                error("SELECT price FROM t WHERE (qty > 1", 35, "Syntax error at column 35: expected ')' to close '('"
                        + " at column 27 but found end of input"),
                error("SELECT price FROM t WHERE note = 5", 32, "Type mismatch at column 32: cannot compare note"
                        + " (STRING) with 5 (BIGINT) using =: expected a STRING value but found BIGINT"),
                error("SELECT price FROM t LIMIT -1", 27, "Invalid LIMIT at column 27: expected a non-negative integer"
                        + " after LIMIT but found -1"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("malformed")
    void failsWithPositionExpectedAndFound(String sql, int position, String headline) {
        PredicateParseException e = catchThrowableOfType(PredicateParseException.class,
                () -> SelectStatement.parse(sql, SCHEMA));
        assertThat(e).as("no error for %s", sql).isNotNull();
        assertThat(e.position()).isEqualTo(position);
        assertThat(e.getMessage().lines().findFirst().orElseThrow()).isEqualTo(headline);
        assertThat(e.sql()).isEqualTo(sql);
    }

    @Test
    void messageEndsWithTheStatementAndACaret() {
        PredicateParseException e = catchThrowableOfType(PredicateParseException.class,
                () -> SelectStatement.parse("SELECT qty\nFROM t\nWHERE qty >", SCHEMA));
        assertThat(e.getMessage()).isEqualTo("Syntax error at line 3, column 12: expected an expression but found"
                + " end of input\nWHERE qty >\n           ^");
    }

    @Test
    void componentsAreValidated() {
        Query all = Query.of(Expressions.alwaysTrue());
        assertThatThrownBy(() -> new SelectStatement(List.of(), "t", all, List.of(), List.of()))
                .hasMessageContaining("at least one item");
        assertThatThrownBy(() -> new SelectStatement(List.of(new AllColumns()), "", all, List.of(), List.of()))
                .hasMessageContaining("FROM");
        assertThatThrownBy(() -> new Aggregate(Function.SUM, Optional.empty()))
                .hasMessageContaining("SUM(*) is not an aggregate");
        assertThatThrownBy(() -> new SortKey(new AllColumns(), true)).hasMessageContaining("Cannot ORDER BY *");
    }

    private static ColumnItem item(String name) {
        return new ColumnItem(column(name));
    }

    private static Aggregate aggregate(Function function, String name) {
        return new Aggregate(function, Optional.of(column(name)));
    }

    private static Arguments error(String sql, int position, String headline) {
        return Arguments.of(sql, position, headline);
    }
}
