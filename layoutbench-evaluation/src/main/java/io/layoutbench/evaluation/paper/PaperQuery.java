package io.layoutbench.evaluation.paper;

import static java.util.Objects.requireNonNull;

import io.layoutbench.evaluation.BenchmarkQuery;

/**
 * One of the LayoutBench paper's eleven benchmark queries; see {@link PaperQueries}. {@link #bind} accepts the label
 * column as label or human_label.
 *
 * <pre>{@code
 * PaperQuery q4 = PaperQueries.get("Q4");
 * BoundQuery snakes = q4.bind(MetadataSchema.imageNet()); // human_label LIKE '%snake'
 * }</pre>
 *
 * @param id          {@code Q1} .. {@code Q11}
 * @param description what the query exercises
 * @param sql         the predicate (and LIMIT) exactly as the paper prints it
 */
public record PaperQuery(String id, String description, String sql) implements BenchmarkQuery {

    public PaperQuery {
        requireNonNull(id, "id is null");
        requireNonNull(description, "description is null");
        requireNonNull(sql, "sql is null");
    }

    @Override
    public String toString() {
        return id + ": " + sql;
    }
}
