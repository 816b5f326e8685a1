package io.layoutbench.api.predicate;

import static io.layoutbench.api.predicate.Expressions.and;
import static io.layoutbench.api.predicate.Expressions.cast;
import static io.layoutbench.api.predicate.Expressions.column;
import static io.layoutbench.api.predicate.Expressions.divide;
import static io.layoutbench.api.predicate.Expressions.equal;
import static io.layoutbench.api.predicate.Expressions.greaterThan;
import static io.layoutbench.api.predicate.Expressions.greaterThanOrEqual;
import static io.layoutbench.api.predicate.Expressions.in;
import static io.layoutbench.api.predicate.Expressions.lessThan;
import static io.layoutbench.api.predicate.Expressions.like;
import static io.layoutbench.api.predicate.Expressions.lit;
import static io.layoutbench.api.predicate.Expressions.not;
import static io.layoutbench.api.predicate.Expressions.or;
import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.MetadataSchema;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QueryParserTest {
    private static final MetadataSchema IMAGENET = MetadataSchema.imageNet();

    @Test
    void precedenceIsSqls() {
        Expression a = equal(column("a"), lit(1));
        Expression b = equal(column("b"), lit(2));
        Expression c = equal(column("c"), lit(3));
        assertThat(where("a = 1 OR b = 2 AND c = 3")).isEqualTo(or(a, and(b, c)));
        assertThat(where("(a = 1 OR b = 2) AND c = 3")).isEqualTo(and(or(a, b), c));
        assertThat(where("NOT a = 1 AND b = 2")).isEqualTo(and(not(a), b));
        assertThat(where("NOT (a = 1 AND b = 2)")).isEqualTo(not(and(a, b)));
        assertThat(where("x + 2 * 3 > 0")).isEqualTo(greaterThan(Expressions.add(column("x"), lit(6)), lit(0)));
        assertThat(where("x - 1 - 2 > 0")).hasToString("x - 1 - 2 > 0");
        assertThat(where("x - (1 - 2) > 0")).hasToString("x - -1 > 0");
        assertThat(where("-x * 2 > 0")).isEqualTo(greaterThan(Expressions.multiply(Expressions.negate(column("x")),
                lit(2)), lit(0)));
        assertThat(where("x > -2 * 3")).isEqualTo(greaterThan(column("x"), lit(-6)));
        assertThat(where("(x IN (1, 2)) = TRUE")).hasToString("(x IN (1, 2)) = TRUE");
    }

    @Test
    void keywordsIgnoreCaseAndOperatorsHaveBothSpellings() {
        assertThat(Query.parse("x not in (1) and y like 'a%' or z is not null limit 5"))
                .hasToString("x NOT IN (1) AND y LIKE 'a%' OR z IS NOT NULL LIMIT 5");
        assertThat(where("x != 1")).isEqualTo(where("x <> 1"));
        assertThat(where("cast(x as double) > 1")).isEqualTo(where("CAST(x AS DOUBLE) > 1"));
        assertThat(where("x = true")).isEqualTo(equal(column("x"), Expressions.alwaysTrue()));
    }

    @Test
    void betweenIsBothBoundsIncluded() {
        assertThat(where("d BETWEEN 0.05 AND 0.07 AND q < 24")).isEqualTo(and(greaterThanOrEqual(column("d"),
                lit(0.05)), Expressions.lessThanOrEqual(column("d"), lit(0.07)), lessThan(column("q"), lit(24))));
        assertThat(where("d not between 1 and 2 + 1")).isEqualTo(not(and(greaterThanOrEqual(column("d"), lit(1)),
                Expressions.lessThanOrEqual(column("d"), lit(3)))));
        assertThat(Query.parse("d BETWEEN 1 AND 3")).hasToString("d >= 1 AND d <= 3");
    }

    @Test
    void literalsAndIdentifiers() {
        assertThat(where("label = 'it''s'")).isEqualTo(equal(column("label"), lit("it's")));
        assertThat(where("label = ''")).isEqualTo(equal(column("label"), lit("")));
        assertThat(where("\"limit\" = 1")).isEqualTo(equal(column("limit"), lit(1)));
        assertThat(where("\"odd\"\"name\" = 1")).isEqualTo(equal(column("odd\"name"), lit(1)));
        assertThat(where("x = 1.5e3")).isEqualTo(equal(column("x"), lit(1500.0)));
        assertThat(where("x = .5")).isEqualTo(equal(column("x"), lit(0.5)));
        assertThat(where("x = 2.")).isEqualTo(equal(column("x"), lit(2.0)));
        assertThat(where("x = -9223372036854775808")).isEqualTo(equal(column("x"), lit(Long.MIN_VALUE)));
        assertThat(where("x = - - 5")).isEqualTo(equal(column("x"), lit(5)));
        assertThat(where("x\n>\t1")).isEqualTo(greaterThan(column("x"), lit(1)));
    }

    @Test
    void limitForms() {
        assertThat(Query.parse("x = 1 LIMIT 0").limit()).isEqualTo(OptionalLong.of(0));
        assertThat(Query.parse("x = 1 limit 9223372036854775807").limit()).isEqualTo(OptionalLong.of(Long.MAX_VALUE));
        assertThat(Query.parse("x = 1").limit()).isEmpty();
        Query firstTen = Query.parse("LIMIT 10");
        assertThat(firstTen).isEqualTo(Query.of(Expressions.alwaysTrue()).withLimit(10));
        assertThat(Query.parse(firstTen.toString())).isEqualTo(firstTen);
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "human_label = 'streetcar' LIMIT 1",
            "label = 'streetcar' LIMIT 1",
            "LABEL = 'streetcar'",
            "Human_Label LIKE '%snake'"})
    void aliasesAndCaseResolveToTheLabelColumn(String sql) {
        BoundQuery bound = Query.parse(sql, IMAGENET).bind(IMAGENET);
        assertThat(bound.schema()).isEqualTo(IMAGENET);
    }

    @Test
    void maximumNestingIsAccepted() {
        String deep = "(".repeat(Query.MAX_DEPTH - 1) + "x = 1" + ")".repeat(Query.MAX_DEPTH - 1);
        assertThat(where(deep)).isEqualTo(equal(column("x"), lit(1)));
        String longList = "x IN (" + "1, ".repeat(10_000) + "2)";
        assertThat(((In) where(longList)).values()).hasSize(10_001);
        String manyConjuncts = "x = 1" + " AND x = 1".repeat(3_000);
        assertThat(((And) where(manyConjuncts)).operands()).hasSize(3_001);
    }

    private static Expression where(String sql) {
        return Query.parse(sql).where();
    }
}
