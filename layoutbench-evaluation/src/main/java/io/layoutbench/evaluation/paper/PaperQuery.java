package io.layoutbench.evaluation.paper;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.Query;

/**
 * One of the LayoutBench paper's eleven benchmark queries; see {@link PaperQueries}.
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
public record PaperQuery(String id, String description, String sql) {

    public PaperQuery {
        requireNonNull(id, "id is null");
        requireNonNull(description, "description is null");
        requireNonNull(sql, "sql is null");
    }

    /** The parsed query. */
    public Query parse() {
        return Query.parse(sql);
    }

    /** The query parsed and bound against {@code schema} (the label column may be called label or human_label). */
    public BoundQuery bind(MetadataSchema schema) {
        return Query.parse(sql, schema).bind(schema);
    }

    @Override
    public String toString() {
        return id + ": " + sql;
    }
}
