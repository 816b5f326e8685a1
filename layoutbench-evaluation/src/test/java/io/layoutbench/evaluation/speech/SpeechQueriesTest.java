package io.layoutbench.evaluation.speech;

import static io.layoutbench.api.predicate.Expressions.and;
import static io.layoutbench.api.predicate.Expressions.column;
import static io.layoutbench.api.predicate.Expressions.equal;
import static io.layoutbench.api.predicate.Expressions.greaterThan;
import static io.layoutbench.api.predicate.Expressions.in;
import static io.layoutbench.api.predicate.Expressions.lessThan;
import static io.layoutbench.api.predicate.Expressions.like;
import static io.layoutbench.api.predicate.Expressions.lit;
import static io.layoutbench.api.predicate.Expressions.or;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.predicate.Expression;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.datasets.synthetic.speech.SyntheticSpeech;
import io.layoutbench.evaluation.BenchmarkQuery;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

class SpeechQueriesTest {

    @Test
    void everyQueryParsesToTheExpectedTreeAndBindsToTheSpeechSchema() {
        Expression speaker = column("speaker_id");
        Expression sex = column("sex");
        Expression seconds = column("duration_seconds");
        Expression transcript = column("transcript");
        Query[] expected = {
                Query.of(equal(speaker, lit(42))).withLimit(1),
                Query.of(equal(speaker, lit(61))),
                Query.of(equal(sex, lit("M"))),
                Query.of(lessThan(seconds, lit(3))),
                Query.of(greaterThan(seconds, lit(20))),
                Query.of(like(transcript, "%SAID%")),
                Query.of(like(transcript, "%NIGHTINGALE%")),
                Query.of(and(equal(sex, lit("F")), greaterThan(seconds, lit(20)))),
                Query.of(and(in(speaker, 42L, 61L), like(transcript, "%SAID%"))),
                Query.of(or(lessThan(seconds, lit(3)), like(transcript, "%NIGHTINGALE%"))),
        };
        assertThat(SpeechQueries.ALL).hasSize(expected.length);
        for (int i = 0; i < expected.length; i++) {
            SpeechQuery query = SpeechQueries.ALL.get(i);
            assertThat(query.parse()).as(query.id()).isEqualTo(expected[i]);
            assertThat(query.bind(SyntheticSpeech.SCHEMA).limit()).isEqualTo(expected[i].limit());
            assertThat(query.description()).isNotBlank();
        }
    }

    @Test
    void tenQueriesWithStableIds() {
        assertThat(SpeechQueries.ALL).extracting(BenchmarkQuery::id)
                .containsExactly("S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9", "S10");
        assertThat(SpeechQueries.get("s7").sql()).isEqualTo("transcript LIKE '%NIGHTINGALE%'");
        assertThat(SpeechQueries.get("S1").parse().limit()).isEqualTo(OptionalLong.of(1));
        assertThat(SpeechQueries.forScale("Medium")).isEqualTo(SpeechQueries.ALL);
        assertThatThrownBy(() -> SpeechQueries.get("Q1"))
                .hasMessage("Unknown speech query 'Q1'; known queries: S1 .. S10");
        assertThatThrownBy(() -> SpeechQueries.forScale("full"))
                .hasMessage("Unknown speech scale 'full'; known scales: tiny, mini, small, medium");
    }
}
