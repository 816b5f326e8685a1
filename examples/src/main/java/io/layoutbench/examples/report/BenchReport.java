package io.layoutbench.examples.report;

import static java.util.Objects.requireNonNull;

import io.layoutbench.examples.bench.IngestRow;
import io.layoutbench.examples.bench.RunRow;

import java.util.Map;
import java.util.List;

/**
 * Everything one {@code bench} command produced: the query runs, the ingests, and how it was run.
 *
 * @param settings how the benchmark was run (scale, profile, backend, reps ...), written into the JSON as
 *                 {@code "settings"}
 * @param rows     one per (layout, mode, query, run, rep)
 * @param ingest   one per layout
 */
public record BenchReport(Map<String, Object> settings, List<RunRow> rows, List<IngestRow> ingest) {
    public BenchReport {
        settings = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(
                requireNonNull(settings, "settings is null")));
        rows = List.copyOf(rows);
        ingest = List.copyOf(ingest);
    }
}
