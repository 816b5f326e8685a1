package io.layoutbench.api.predicate;

import static io.layoutbench.api.predicate.Expressions.add;
import static io.layoutbench.api.predicate.Expressions.and;
import static io.layoutbench.api.predicate.Expressions.cast;
import static io.layoutbench.api.predicate.Expressions.column;
import static io.layoutbench.api.predicate.Expressions.greaterThan;
import static io.layoutbench.api.predicate.Expressions.lessThan;
import static io.layoutbench.api.predicate.Expressions.lit;
import static io.layoutbench.api.predicate.Expressions.negate;
import static io.layoutbench.api.predicate.Expressions.not;
import static io.layoutbench.api.predicate.Expressions.or;
import static io.layoutbench.api.predicate.Expressions.subtract;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * No expression tree deeper than {@link Query#MAX_DEPTH} can be built, by any factory, constructor or the parser,
 * and every tree at the limit binds, evaluates, prunes, prints and parses back.
 */
class ExpressionDepthTest {
    private static final MetadataSchema SCHEMA = MetadataSchema.imageNet();
    private static final String TOO_DEEP = "would be 129 levels of nested operators, more than the limit of 128"
            + " (Query.MAX_DEPTH)";
    private static final Expression WIDTH = column("width");
    private static final Expression HEIGHT = column("height");

    @Test
    void aLongAddChainStopsAtTheLimitInsteadOfOverflowingTheStack() {
        Expression chain = WIDTH;
        PredicateException error = null;
        int built = 0;
        for (int i = 0; i < 3_000 && error == null; i++) {
            try {
                chain = add(chain, lit(1));
                built++;
            } catch (PredicateException e) {
                error = e;
            }
        }
        assertThat(built).isEqualTo(Query.MAX_DEPTH - 1);
        assertThat(ExpressionDepth.of(chain)).isEqualTo(Query.MAX_DEPTH);
        // The operand is shortened in the message, as operands of type errors are.
        assertThat(error).hasMessage("Expression too deep: + over width" + " + 1".repeat(13) + "... " + TOO_DEEP);
        // What was built up to the limit is usable: as a WHERE clause one level under it, it binds.
        Expression operand = ((Arithmetic) chain).left();
        assertThat(Query.of(greaterThan(operand, lit(0))).bind(SCHEMA).toString()).endsWith(" + 1 > 0");
    }

    /** Trees of every node kind that are exactly {@link Query#MAX_DEPTH} deep. */
    static Stream<Arguments> treesAtTheLimit() {
        return Stream.of(
                Arguments.of("left-deep +", greaterThan(numeric(e -> add(e, lit(1))), lit(0))),
                Arguments.of("right-deep -", greaterThan(numeric(e -> subtract(HEIGHT, e)), lit(0))),
                Arguments.of("unary -", lessThan(numeric(Expressions::negate), lit(0))),
                Arguments.of("CAST", greaterThan(numeric(e -> cast(e, ColumnType.DOUBLE)), lit(1.5))),
                Arguments.of("NOT, AND, OR", logical()),
                Arguments.of("IN", Expressions.in(numeric(e -> add(e, lit(1))), 300L, 301L)),
                Arguments.of("IS NULL", Expressions.isNull(numeric(e -> add(e, lit(1))))));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("treesAtTheLimit")
    void aTreeAtTheLimitBindsEvaluatesPrunesPrintsAndParsesBack(String kind, Expression tree) {
        assertThat(ExpressionDepth.of(tree)).isEqualTo(Query.MAX_DEPTH);
        BoundQuery bound = Query.of(tree).bind(SCHEMA);
        List<MetadataRow> rows = rows();
        ColumnarTable table = ColumnarTable.of(SCHEMA, rows);
        int[] selected = bound.select(table).toArray();
        int[] tested = IntStream.range(0, rows.size()).filter(i -> bound.test(rows.get(i))).toArray();
        assertThat(selected).isEqualTo(tested);
        assertThat(bound.prune(new GroupStatistics(rows.size(), Map.of(
                "width", ColumnStatistics.of(100L, 900L, 0), "height", ColumnStatistics.of(100L, 900L, 0)))))
                .isNotNull();
        // The parser accepts what the API builds: the printed tree parses back to the same tree.
        assertThat(Query.parse(tree.toString(), SCHEMA).where()).isEqualTo(tree);
        assertThat(tree.hashCode()).isEqualTo(Query.parse(tree.toString()).where().hashCode());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("treesAtTheLimit")
    void oneLevelMoreIsRefusedByEveryFactory(String kind, Expression tree) {
        Expression deepNumeric = numeric(e -> add(e, lit(1)), Query.MAX_DEPTH);
        List<ThrowingCallable> builds = new ArrayList<>(List.of(
                () -> Expressions.not(tree), () -> Expressions.isNull(tree), () -> Expressions.equal(tree, lit(true)),
                () -> add(deepNumeric, lit(1)), () -> Expressions.multiply(lit(2), deepNumeric),
                () -> Expressions.divide(deepNumeric, WIDTH), () -> negate(deepNumeric),
                () -> cast(deepNumeric, ColumnType.BIGINT), () -> greaterThan(deepNumeric, WIDTH),
                () -> Expressions.in(deepNumeric, 1L), () -> Expressions.notIn(deepNumeric, 1L),
                () -> Expressions.isNotNull(deepNumeric)));
        if (!(tree instanceof And)) {
            builds.add(() -> and(tree, greaterThan(WIDTH, lit(1))));
        }
        if (!(tree instanceof Or)) {
            builds.add(() -> or(lessThan(WIDTH, lit(1)), tree));
        }
        for (ThrowingCallable build : builds) {
            assertThatThrownBy(build).isExactlyInstanceOf(PredicateException.class)
                    .hasMessageStartingWith("Expression too deep: ").hasMessageEndingWith(TOO_DEEP);
        }
        if (tree instanceof And) {
            // AND over an AND flattens into one node: no deeper.
            assertThat(ExpressionDepth.of(and(tree, greaterThan(WIDTH, lit(1))))).isEqualTo(Query.MAX_DEPTH);
        }
    }

    @Test
    void nodeConstructorsRefuseWhatTheFactoriesRefuse() {
        Expression deepNumeric = numeric(e -> add(e, lit(1)), Query.MAX_DEPTH);
        Expression deepBoolean = greaterThan(numeric(e -> add(e, lit(1))), lit(0));
        Expression shallow = greaterThan(WIDTH, lit(1));
        List<ThrowingCallable> builds = List.of(
                () -> new Arithmetic(ArithmeticOperator.SUBTRACT, WIDTH, deepNumeric),
                () -> new Negate(deepNumeric), () -> new Cast(deepNumeric, ColumnType.DOUBLE),
                () -> new Comparison(ComparisonOperator.LESS_THAN, deepNumeric, lit(1)),
                () -> new In(deepNumeric, List.of(lit(1)), true),
                // LIKE needs a STRING operand, and no STRING expression is deeper than a column; the record alone
                // does not check types, so it checks the depth itself.
                () -> new Like(deepNumeric, "a%", false), () -> new IsNull(deepNumeric, false),
                () -> new Not(deepBoolean), () -> new And(List.of(shallow, deepBoolean)),
                () -> new Or(List.of(deepBoolean, shallow)));
        for (ThrowingCallable build : builds) {
            assertThatThrownBy(build).isExactlyInstanceOf(PredicateException.class).hasMessageEndingWith(TOO_DEEP);
        }
        assertThatThrownBy(() -> new Like(deepNumeric, "a%", true)).hasMessageStartingWith(
                "Expression too deep: NOT LIKE over width + 1 + 1 + 1");
    }

    @Test
    void theParserRefusesTheSameDepthWithAPosition() {
        String atLimit = "width" + " + 1".repeat(Query.MAX_DEPTH - 2) + " > 0";
        assertThat(ExpressionDepth.of(Query.parse(atLimit).where())).isEqualTo(Query.MAX_DEPTH);
        String deeper = "width" + " + 1".repeat(Query.MAX_DEPTH - 1) + " > 0";
        PredicateParseException e = catchThrowableOfType(PredicateParseException.class, () -> Query.parse(deeper));
        assertThat(e.position()).isEqualTo(deeper.length() - 2);
        assertThat(e.getMessage().lines().findFirst().orElseThrow()).isEqualTo("Expression too deep at column "
                + (deeper.length() - 2) + ": > over width" + " + 1".repeat(13) + "... " + TOO_DEEP);
    }

    @Test
    void sharedSubtreesAreMeasuredOnceNotOncePerPath() {
        // 2^127 paths, 128 nodes: a walk per path would never finish; the error's excerpt is bounded too.
        Expression shared = WIDTH;
        PredicateException error = null;
        for (int i = 0; i < 200 && error == null; i++) {
            try {
                shared = add(shared, shared);
            } catch (PredicateException e) {
                error = e;
            }
        }
        assertThat(ExpressionDepth.of(shared)).isEqualTo(Query.MAX_DEPTH);
        assertThat(error).hasMessageStartingWith("Expression too deep: + over width + width + (width + width)")
                .hasMessageEndingWith(TOO_DEEP);
        assertThat(error.getMessage().length()).isLessThan(200);
    }

    /** A BIGINT or DOUBLE expression over width, {@code MAX_DEPTH - 1} levels deep. */
    private static Expression numeric(UnaryOperator<Expression> level) {
        return numeric(level, Query.MAX_DEPTH - 1);
    }

    private static Expression numeric(UnaryOperator<Expression> level, int depth) {
        Expression e = WIDTH;
        for (int i = 1; i < depth; i++) {
            e = level.apply(e);
        }
        return e;
    }

    /** NOT, AND and OR in turn over {@code width > 300}, {@code MAX_DEPTH} levels deep. */
    private static Expression logical() {
        Expression e = greaterThan(WIDTH, lit(300));
        for (int depth = 2; depth < Query.MAX_DEPTH; depth++) {
            e = switch (depth % 3) {
                case 0 -> not(e);
                case 1 -> and(e, greaterThan(HEIGHT, lit(200 + depth)));
                default -> or(e, lessThan(HEIGHT, lit(depth)));
            };
        }
        return e;
    }

    private static List<MetadataRow> rows() {
        List<MetadataRow> rows = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            rows.add(new MetadataRow(SCHEMA, Arrays.asList("f" + i + ".JPEG", "label" + (i % 7), 1000L + i,
                    100L + 4 * i, 900L - 4 * i)));
        }
        return rows;
    }
}
