package io.layoutbench.api.predicate;

import static io.layoutbench.api.predicate.Expressions.alwaysFalse;
import static io.layoutbench.api.predicate.Expressions.alwaysTrue;
import static io.layoutbench.api.predicate.Expressions.and;
import static io.layoutbench.api.predicate.Expressions.cast;
import static io.layoutbench.api.predicate.Expressions.column;
import static io.layoutbench.api.predicate.Expressions.divide;
import static io.layoutbench.api.predicate.Expressions.equal;
import static io.layoutbench.api.predicate.Expressions.greaterThan;
import static io.layoutbench.api.predicate.Expressions.in;
import static io.layoutbench.api.predicate.Expressions.isNull;
import static io.layoutbench.api.predicate.Expressions.lessThan;
import static io.layoutbench.api.predicate.Expressions.like;
import static io.layoutbench.api.predicate.Expressions.lit;
import static io.layoutbench.api.predicate.Expressions.multiply;
import static io.layoutbench.api.predicate.Expressions.negate;
import static io.layoutbench.api.predicate.Expressions.not;
import static io.layoutbench.api.predicate.Expressions.or;
import static io.layoutbench.api.predicate.Expressions.subtract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.ColumnType;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import org.junit.jupiter.api.Test;

class ExpressionsTest {
    private final Expression x = greaterThan(column("width"), lit(5));
    private final Expression y = lessThan(column("height"), lit(3));
    private final Expression z = equal(column("label"), lit("cello"));

    @Test
    void constantsFoldAsBuilt() {
        assertThat(multiply(lit(500), lit(1024))).isEqualTo(lit(512_000));
        assertThat(subtract(lit(1), lit(2.5))).isEqualTo(lit(-1.5));
        assertThat(divide(lit(7), lit(2))).as("/ is DOUBLE division").isEqualTo(lit(3.5));
        assertThat(negate(lit(5))).isEqualTo(lit(-5));
        assertThat(cast(lit(2.5), ColumnType.BIGINT)).as("half away from zero").isEqualTo(lit(3));
        assertThat(cast(lit(-2.5), ColumnType.BIGINT)).isEqualTo(lit(-3));
        assertThat(cast(lit(3), ColumnType.DOUBLE)).isEqualTo(lit(3.0));
        assertThat(lessThan(lit(1), lit(2))).isEqualTo(alwaysTrue());
        assertThat(equal(lit(1), lit(1.0))).as("BIGINT compares with DOUBLE as DOUBLE").isEqualTo(alwaysTrue());
        assertThat(in(lit("a"), "b", "a")).isEqualTo(alwaysTrue());
        assertThat(like(lit("king_snake"), "%snake")).isEqualTo(alwaysTrue());
        assertThat(isNull(lit(1))).as("literals are never NULL").isEqualTo(alwaysFalse());
    }

    @Test
    void decimalLiteralsFoldAsTheDecimalsTheyAreWritten() {
        // Double arithmetic gives 0.049999999999999996 and 0.06999999999999999: TPC-H Q6's bounds written as the
        // spec writes them would drop the rows at 0.05 and 0.07, which DuckDB (DECIMAL literals) keeps.
        assertThat(subtract(lit(0.06), lit(0.01))).isEqualTo(lit(0.05));
        assertThat(Expressions.add(lit(0.06), lit(0.01))).isEqualTo(lit(0.07));
        assertThat(Expressions.add(lit(0.1), lit(0.2))).isEqualTo(lit(0.3));
        assertThat(multiply(lit(1.1), lit(1.1))).isEqualTo(lit(1.21));
        assertThat(multiply(lit(3), lit(0.1))).as("BIGINT with DOUBLE").isEqualTo(lit(0.3));
        assertThat(subtract(lit(1), lit(0.9))).isEqualTo(lit(0.1));
        assertThat(divide(lit(1.0), lit(3.0))).as("division stays DOUBLE division").isEqualTo(lit(1.0 / 3.0));
        assertThat(multiply(lit(1e-300), lit(1e-300))).as("rounded once, to the nearest double").isEqualTo(lit(0.0));
        assertThat(Query.parse("d BETWEEN .06 - 0.01 AND .06 + 0.01").where())
                .hasToString("d >= 0.05 AND d <= 0.07");
        assertThat(Query.parse("d > 0.1 * 3 - 0.3").where()).hasToString("d > 0.0");
    }

    @Test
    void andOrNotSimplifyAsBuilt() {
        assertThat(and(x, alwaysFalse())).isEqualTo(alwaysFalse());
        assertThat(and(x, alwaysTrue())).isEqualTo(x);
        assertThat(or(x, alwaysTrue())).isEqualTo(alwaysTrue());
        assertThat(or(x, alwaysFalse())).isEqualTo(x);
        assertThat(and()).isEqualTo(alwaysTrue());
        assertThat(or()).isEqualTo(alwaysFalse());
        assertThat(and(x)).isEqualTo(x);
        assertThat(not(not(x))).isEqualTo(x);
        assertThat(not(alwaysTrue())).isEqualTo(alwaysFalse());
        assertThat(and(x, and(y, z))).isEqualTo(new And(List.of(x, y, z)));
        assertThat(and(and(x, y), z)).isEqualTo(and(x, and(y, z)));
        assertThat(or(x, or(y, z))).isEqualTo(new Or(List.of(x, y, z)));
    }

    @Test
    void printsMinimalParenthesesThatReparse() {
        assertThat(and(or(x, y), z)).hasToString("(width > 5 OR height < 3) AND label = 'cello'");
        assertThat(or(and(x, y), z)).hasToString("width > 5 AND height < 3 OR label = 'cello'");
        assertThat(not(and(x, y))).hasToString("NOT (width > 5 AND height < 3)");
        assertThat(and(not(x), y)).hasToString("NOT width > 5 AND height < 3");
        Expression a = column("a");
        Expression b = column("b");
        Expression c = column("c");
        assertThat(Expressions.subtract(a, Expressions.subtract(b, c))).hasToString("a - (b - c)");
        assertThat(Expressions.subtract(Expressions.subtract(a, b), c)).hasToString("a - b - c");
        assertThat(multiply(Expressions.add(a, b), c)).hasToString("(a + b) * c");
        assertThat(Expressions.add(a, multiply(b, c))).hasToString("a + b * c");
        assertThat(negate(negate(a))).hasToString("-(-a)");
        assertThat(negate(Expressions.add(a, b))).hasToString("-(a + b)");
        assertThat(Expressions.subtract(a, lit(-5))).hasToString("a - -5");
        assertThat(equal(lessThan(a, b), alwaysTrue())).hasToString("(a < b) = TRUE");
        assertThat(lit("o'neil")).hasToString("'o''neil'");
        assertThat(column("limit")).hasToString("\"limit\"");
        assertThat(lit(1e10)).hasToString("1.0E10");
        assertThat(lit(Long.MIN_VALUE)).hasToString("-9223372036854775808");
        for (Expression e : List.of(and(or(x, y), z), not(and(x, y)), lessThan(negate(negate(a)), b),
                equal(a, lit(Long.MIN_VALUE)), greaterThan(Expressions.subtract(a, Expressions.subtract(b, c)), lit(0)),
                equal(lessThan(a, b), alwaysTrue()), equal(a, lit(-0.0)), equal(lit(1e-300), a),
                Expressions.notIn(a, 1, 2.5), Expressions.notLike(c, "a_%"), Expressions.isNotNull(divide(a, b)),
                greaterThan(cast(negate(a), ColumnType.DOUBLE), lit(1)), not(Expressions.isNull(a)))) {
            assertThat(Query.parse(e.toString()).where()).as(e.toString()).isEqualTo(e);
        }
    }

    @Test
    void literalTypeErrorsAreCaughtWithoutASchema() {
        assertThatThrownBy(() -> Expressions.add(lit("a"), lit(1)))
                .isInstanceOf(PredicateException.class)
                .hasMessage("Type mismatch: operator + needs numeric operands but 'a' (STRING) is not: expected"
                        + " BIGINT or DOUBLE but found STRING");
        assertThatThrownBy(() -> equal(lit("a"), lit(1))).hasMessageContaining("cannot compare 'a' (STRING) with 1");
        assertThatThrownBy(() -> and(lit(5), x)).hasMessageContaining("AND needs BOOLEAN operands but 5 (BIGINT)");
        assertThatThrownBy(() -> not(multiply(column("w"), lit(2)))).hasMessageContaining("NOT needs a BOOLEAN");
        assertThatThrownBy(() -> like(lit(5), "a%")).hasMessageContaining("LIKE needs a STRING operand");
        assertThatThrownBy(() -> in(column("w"), 1, "a")).hasMessageContaining("IN list mixes BIGINT and STRING");
        assertThatThrownBy(() -> cast(column("w"), ColumnType.STRING))
                .hasMessage("Unsupported CAST type: expected BIGINT or DOUBLE but found STRING");
    }

    @Test
    void foldingRejectsUndefinedConstants() {
        assertThatThrownBy(() -> divide(column("width"), lit(0)))
                .isInstanceOf(PredicateException.class)
                .hasMessageStartingWith("Division by zero: width / 0 divides by a zero literal");
        assertThatThrownBy(() -> divide(column("width"), lit(-0.0))).hasMessageStartingWith("Division by zero");
        assertThatThrownBy(() -> Expressions.add(lit(Long.MAX_VALUE), lit(1)))
                .hasMessage("BIGINT overflow: 9223372036854775807 + 1 does not fit in a BIGINT");
        assertThatThrownBy(() -> negate(lit(Long.MIN_VALUE))).hasMessageStartingWith("BIGINT overflow");
        assertThatThrownBy(() -> multiply(lit(1e300), lit(1e300))).hasMessageStartingWith("DOUBLE overflow");
        assertThatThrownBy(() -> cast(lit(1e30), ColumnType.BIGINT)).hasMessageStartingWith("BIGINT overflow");
        assertThatThrownBy(() -> in(column("w"))).hasMessageStartingWith("Empty IN list");
    }

    @Test
    void nodesRejectUnsimplifiedShapes() {
        assertThatThrownBy(() -> new Arithmetic(ArithmeticOperator.ADD, lit(1), lit(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be folded");
        assertThatThrownBy(() -> new And(List.of(x))).hasMessageContaining("at least two operands");
        assertThatThrownBy(() -> new And(List.of(x, alwaysTrue()))).hasMessageContaining("must be flattened");
        assertThatThrownBy(() -> new Not(new Not(x))).hasMessageContaining("must be simplified");
        assertThatThrownBy(() -> new Literal(Double.NaN)).hasMessageContaining("must be finite");
        assertThatThrownBy(() -> new Literal(new Object())).hasMessageContaining("Long, Double, String or Boolean");
        assertThat(new Literal(5)).as("Integer widens to Long").isEqualTo(lit(5L));
    }

    @Test
    void walkerVisitsEveryColumn() {
        Expression q = Query.parse("human_label IN ('canoe') AND CAST(width AS DOUBLE) / -height > 1.5"
                + " OR filename IS NULL OR NOT label LIKE 'a%'").where();
        Set<String> columns = new TreeSet<>();
        q.accept(new ExpressionVisitor.Walker() {
            @Override
            public Void visitColumn(ColumnRef column) {
                columns.add(column.name());
                return null;
            }
        });
        assertThat(columns).containsExactly("filename", "height", "human_label", "label", "width");
    }
}
