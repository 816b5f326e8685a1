package io.layoutbench.evaluation;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;

/**
 * A query of a benchmark workload: an id, what it exercises, and its predicate text (SQL WHERE, optionally with
 * LIMIT). The LayoutBench paper's Q1-Q11 ({@link io.layoutbench.evaluation.paper.PaperQuery}) and the speech
 * queries S1-S10 ({@link io.layoutbench.evaluation.speech.SpeechQuery}) are benchmark queries; the bench runs either.
 *
 * <pre>{@code
 * BenchmarkQuery q = SpeechQueries.get("S5");
 * Selection longClips = q.bind(SyntheticSpeech.SCHEMA).select(table);
 * }</pre>
 */
public interface BenchmarkQuery {

    /** A short stable id ({@code Q3}, {@code S5}). */
    String id();

    /** What the query exercises, in a sentence. */
    String description();

    /** The predicate (and LIMIT) as the benchmark writes it. */
    String sql();

    /** The parsed query. */
    default Query parse() {
        return Query.parse(sql());
    }

    /** The query parsed and bound against {@code schema} (column names may be aliases the schema accepts). */
    default BoundQuery bind(MetadataSchema schema) {
        return Query.parse(sql(), schema).bind(schema);
    }
}
