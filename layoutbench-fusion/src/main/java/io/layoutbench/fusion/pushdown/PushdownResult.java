package io.layoutbench.fusion.pushdown;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.predicate.ColumnarTable;

import java.util.List;

/**
 * A query's answer and how it was obtained.
 *
 * <pre>{@code
 * PushdownResult result = engine.execute(key, "SELECT l_tax FROM lineitem WHERE l_quantity < 2", PushdownMode.FUSION);
 * ColumnarTable rows = result.rows();
 * double firstTax = rows.getDouble(0, 0);
 * }</pre>
 *
 * @param query  the query as parsed
 * @param labels the SELECT items as written ({@code l_tax}, {@code SUM(l_tax)}), one per column of {@code rows}
 * @param rows   the selected values in file order, or one row of aggregates; DATE columns as ISO strings, integer
 *               columns as BIGINT; aggregate columns are named {@code sum_l_tax}, {@code count_star} and so on
 * @param report what crossed the network and what it cost
 */
public record PushdownResult(SelectQuery query, List<String> labels, ColumnarTable rows, PushdownReport report) {

    public PushdownResult {
        requireNonNull(query, "query is null");
        labels = List.copyOf(labels);
        requireNonNull(rows, "rows is null");
        requireNonNull(report, "report is null");
    }
}
