package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.MetadataSchema;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

class PaperQueriesTest {

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
