package io.layoutbench.evaluation.paper;

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
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.Query;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

class PaperQueriesTest {
    private static final MetadataSchema IMAGENET = MetadataSchema.imageNet();

    @Test
    void everyPaperQueryParsesToTheExpectedTreeAndPrintsAsWritten() {
        Expression label = column("human_label");
        Expression size = column("filesize_bytes");
        Expression width = column("width");
        Expression height = column("height");
        Query[] expected = {
                Query.of(equal(label, lit("streetcar"))).withLimit(1),
                Query.of(equal(label, lit("lemon"))).withLimit(10),
                Query.of(equal(label, lit("cello"))),
                Query.of(like(label, "%snake")),
                Query.of(in(label, "Old_English_sheepdog", "giant_panda", "water_buffalo")),
                Query.of(greaterThanOrEqual(size, lit(512_000))),
                Query.of(and(greaterThanOrEqual(width, lit(1024)), greaterThanOrEqual(height, lit(1024)))),
                Query.of(greaterThan(divide(cast(width, ColumnType.DOUBLE), cast(height, ColumnType.DOUBLE)),
                        lit(1.5))),
                Query.of(and(in(label, "canoe", "starfish"), lessThan(size, lit(102_400)))),
                Query.of(and(equal(label, lit("tiger_cat")), lessThan(size, lit(102_400)))),
                Query.of(and(equal(label, lit("bagel")), greaterThanOrEqual(width, lit(512)),
                        greaterThanOrEqual(height, lit(512)), lessThan(size, lit(204_800)))),
        };
        for (int i = 0; i < expected.length; i++) {
            PaperQuery paper = PaperQueries.ALL.get(i);
            Query parsed = paper.parse();
            assertThat(parsed).as(paper.id()).isEqualTo(expected[i]);
            assertThat(Query.parse(paper.sql(), IMAGENET)).as(paper.id()).isEqualTo(expected[i]);
            assertThat(Query.parse(parsed.toString())).as(paper.id()).isEqualTo(parsed);
        }
        // Constant folding is visible in the printed form; everything else prints as the paper writes it.
        assertThat(PaperQueries.get("Q5").parse()).hasToString(PaperQueries.get("Q5").sql());
        assertThat(PaperQueries.get("Q8").parse()).hasToString(PaperQueries.get("Q8").sql());
        assertThat(PaperQueries.get("Q6").parse()).hasToString("filesize_bytes >= 512000");
        assertThat(PaperQueries.get("Q1").parse().limit()).isEqualTo(OptionalLong.of(1));
    }


    @Test
    void elevenQueriesWithStableIds() {
        assertThat(PaperQueries.ALL).extracting(PaperQuery::id)
                .containsExactly("Q1", "Q2", "Q3", "Q4", "Q5", "Q6", "Q7", "Q8", "Q9", "Q10", "Q11");
        assertThat(PaperQueries.ALL).allSatisfy(q -> assertThat(q.description()).isNotBlank());
        assertThat(PaperQueries.get("q11").sql()).isEqualTo(
                "human_label = 'bagel' AND width >= 512 AND height >= 512 AND filesize_bytes < 200 * 1024");
        assertThat(PaperQueries.get("Q2").sql()).isEqualTo("human_label = 'lemon' LIMIT 10");
    }

    @Test
    void q2LimitGrowsWithTheScale() {
        assertThat(PaperQueries.q2Limit("tiny")).isEqualTo(10);
        assertThat(PaperQueries.q2Limit("mini")).isEqualTo(10);
        assertThat(PaperQueries.q2Limit("medium")).isEqualTo(100);
        assertThat(PaperQueries.q2Limit("FULL")).isEqualTo(1000);
        assertThat(PaperQueries.get("Q2", "full").parse().limit()).isEqualTo(OptionalLong.of(1000));
        assertThat(PaperQueries.forScale("medium").get(1).sql()).isEqualTo("human_label = 'lemon' LIMIT 100");
        assertThat(PaperQueries.forScale("medium").get(0)).isEqualTo(PaperQueries.ALL.get(0));
        assertThatThrownBy(() -> PaperQueries.q2Limit("huge"))
                .hasMessage("Unknown scale 'huge'; known scales: tiny, mini, medium, full");
        assertThatThrownBy(() -> PaperQueries.get("Q12")).hasMessage("Unknown paper query 'Q12'; known queries:"
                + " Q1 .. Q11");
    }

    @Test
    void everyQueryBindsToTheImageNetSchemaUnderBothLabelNames() {
        MetadataSchema schema = MetadataSchema.imageNet();
        for (PaperQuery q : PaperQueries.ALL) {
            BoundQuery bound = q.bind(schema);
            String l3 = q.sql().replace("human_label", "label");
            BoundQuery l3Bound = Query.parse(l3, schema).bind(schema);
            assertThat(l3Bound.limit()).isEqualTo(bound.limit());
        }
    }
}
