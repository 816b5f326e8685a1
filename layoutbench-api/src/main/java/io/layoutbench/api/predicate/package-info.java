/**
 * The predicate language: a small SQL WHERE dialect used to select samples by metadata.
 *
 * <ul>
 *   <li>{@link io.layoutbench.api.predicate.Expression} trees are built with
 *       {@link io.layoutbench.api.predicate.Expressions} (simplified and constant-folded as built) or parsed with
 *       {@link io.layoutbench.api.predicate.Query#parse(String)}; {@code toString()} prints SQL that parses back to
 *       an equal tree.</li>
 *   <li>{@link io.layoutbench.api.predicate.Expression#bind} / {@link io.layoutbench.api.predicate.Query#bind}
 *       resolve columns and check types against a {@link io.layoutbench.api.dataset.MetadataSchema}, giving a
 *       thread-safe {@link io.layoutbench.api.predicate.BoundPredicate} that evaluates one
 *       {@link io.layoutbench.api.dataset.MetadataRow}, selects rows of a
 *       {@link io.layoutbench.api.predicate.ColumnarTable} in bulk, and prunes row groups by
 *       {@link io.layoutbench.api.predicate.GroupStatistics}.</li>
 *   <li>{@link io.layoutbench.api.predicate.SelectStatement#parse(String, io.layoutbench.api.dataset.MetadataSchema)}
 *       reads {@code SELECT items FROM name [WHERE ...] [GROUP BY ...] [ORDER BY ...] [LIMIT n]} on the same
 *       tokenizer and parser: the WHERE clause is this language, and errors give positions in the statement.</li>
 *   <li>{@link io.layoutbench.evaluation.paper.PaperQueries} lists the eleven queries of the LayoutBench paper.</li>
 * </ul>
 *
 * <p>Semantics follow SQL and DuckDB: three-valued logic with NULL; BIGINT {@code + - *} stays BIGINT, {@code /}
 * is DOUBLE division; a zero divisor or BIGINT overflow at evaluation time gives NULL (a zero literal divisor is
 * rejected when the expression is built).
 *
 * <pre>{@code
 * MetadataSchema schema = MetadataSchema.imageNet();
 * ColumnarTable table = ColumnarTable.of(schema, rows);
 * BoundQuery q = Query.parse("human_label IN ('canoe', 'starfish') AND filesize_bytes < 100 * 1024", schema)
 *         .bind(schema);
 * Selection hits = q.select(table);
 * }</pre>
 */
package io.layoutbench.api.predicate;
