package io.layoutbench.examples.report;

import static java.util.Objects.requireNonNull;

import io.layoutbench.examples.bench.IngestRow;
import io.layoutbench.examples.bench.RunRow;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The columns of the reports, in order, with their names: the JSON fields and the CSV header are both these, so the
 * two never drift apart. Units are in the names ({@code _bytes}, {@code _seconds}, {@code _usd}) or are counts.
 *
 * <pre>{@code
 * for (Columns.Column<RunRow> column : Columns.RUN) {
 *     System.out.println(column.name() + " = " + column.value(row));
 * }
 * }</pre>
 */
public final class Columns {

    /**
     * One named column.
     *
     * @param name   the JSON field and CSV header
     * @param getter the value of a row: a String, a Number or a Boolean
     * @param <R>    the row type
     */
    public record Column<R>(String name, Function<R, Object> getter) {
        public Column {
            requireNonNull(name, "name is null");
            requireNonNull(getter, "getter is null");
        }

        public Object value(R row) {
            return getter.apply(row);
        }
    }

    /** The columns of a query run, one row per (layout, mode, query, run, rep). */
    public static final List<Column<RunRow>> RUN = List.of(
            new Column<>("layout", RunRow::layout),
            new Column<>("mode", RunRow::mode),
            new Column<>("query", RunRow::query),
            new Column<>("scale", RunRow::scale),
            new Column<>("profile", RunRow::profile),
            new Column<>("backend", RunRow::backend),
            new Column<>("run", RunRow::run),
            new Column<>("rep", RunRow::rep),
            new Column<>("samples", RunRow::samples),
            new Column<>("payload_bytes", RunRow::payloadBytes),
            new Column<>("bytes", RunRow::bytes),
            new Column<>("requests", RunRow::requests),
            new Column<>("get_requests", RunRow::getRequests),
            new Column<>("put_requests", RunRow::putRequests),
            new Column<>("hedged_requests", RunRow::hedgedRequests),
            new Column<>("seconds", RunRow::seconds),
            new Column<>("first_sample_seconds", RunRow::firstSampleSeconds),
            new Column<>("transfer_usd", RunRow::transferUsd),
            new Column<>("request_usd", RunRow::requestUsd),
            new Column<>("compute_usd", RunRow::computeUsd),
            new Column<>("cost_usd", RunRow::costUsd),
            new Column<>("predicted_seconds", RunRow::predictedSeconds),
            new Column<>("predicted_bytes", RunRow::predictedBytes),
            new Column<>("predicted_requests", RunRow::predictedRequests),
            new Column<>("predicted_cost_usd", RunRow::predictedCostUsd),
            new Column<>("bound_seconds", RunRow::boundSeconds),
            new Column<>("bound_ratio", RunRow::boundRatio),
            new Column<>("peak_heap_bytes", RunRow::peakHeapBytes),
            new Column<>("peak_direct_bytes", RunRow::peakDirectBytes),
            new Column<>("peak_mapped_bytes", RunRow::peakMappedBytes),
            new Column<>("peak_rss_bytes", RunRow::peakRssBytes),
            new Column<>("sql", RunRow::sql));

    /** The columns of an ingest, one row per layout. */
    public static final List<Column<IngestRow>> INGEST = List.of(
            new Column<>("layout", IngestRow::layout),
            new Column<>("dataset", IngestRow::dataset),
            new Column<>("source", IngestRow::source),
            new Column<>("backend", IngestRow::backend),
            new Column<>("prefix", IngestRow::prefix),
            new Column<>("options", IngestRow::options),
            new Column<>("profile", IngestRow::profile),
            new Column<>("reused", IngestRow::reused),
            new Column<>("samples", IngestRow::samples),
            new Column<>("payload_bytes", IngestRow::payloadBytes),
            new Column<>("stored_bytes", IngestRow::storedBytes),
            new Column<>("objects", IngestRow::objects),
            new Column<>("seconds", IngestRow::seconds),
            new Column<>("bytes", IngestRow::bytes),
            new Column<>("requests", IngestRow::requests),
            new Column<>("put_requests", IngestRow::putRequests),
            new Column<>("request_usd", IngestRow::requestUsd),
            new Column<>("compute_usd", IngestRow::computeUsd),
            new Column<>("cost_usd", IngestRow::costUsd),
            new Column<>("storage_usd_per_month", IngestRow::storageUsdPerMonth),
            new Column<>("peak_heap_bytes", IngestRow::peakHeapBytes),
            new Column<>("peak_direct_bytes", IngestRow::peakDirectBytes),
            new Column<>("peak_mapped_bytes", IngestRow::peakMappedBytes),
            new Column<>("peak_rss_bytes", IngestRow::peakRssBytes));

    private Columns() {
    }

    /** The names of {@code columns}, in order. */
    public static <R> List<String> names(List<Column<R>> columns) {
        return columns.stream().map(Column::name).toList();
    }

    /** {@code row} as an ordered map of column name to value. */
    public static <R> Map<String, Object> toMap(List<Column<R>> columns, R row) {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Column<R> column : columns) {
            values.put(column.name(), column.value(row));
        }
        return values;
    }
}
