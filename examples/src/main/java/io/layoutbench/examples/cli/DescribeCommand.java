package io.layoutbench.examples.cli;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.SupportsMetadataScan;
import io.layoutbench.api.predicate.ColumnStatistics;
import io.layoutbench.api.predicate.GroupStatistics;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code layoutbench describe}: an ingested dataset's schema (columns and payload fields), sample count, bytes
 * stored, and each column's statistics (NULLs, min, max) from one read of its metadata.
 */
@Command(name = "describe",
        mixinStandardHelpOptions = true,
        description = "Print an ingested dataset's schema, payload fields, samples, bytes and column statistics.",
        footer = {"", "Examples:",
            "  layoutbench describe --scale tiny --layout l2",
            "  layoutbench describe --dataset speech --layout l3"})
final class DescribeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    DatasetOptions dataset = new DatasetOptions();

    @Mixin
    StoreOptions store = new StoreOptions();

    @Mixin
    DatasetCopy copy = new DatasetCopy();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        StorageLayout layout = copy.layout(spec.commandLine());
        String prefix = QueryCommand.prefix(spec, dataset, copy.datasetName, layout, copy.layoutOptions);
        try (Store opened = store.open(spec.commandLine())) {
            if (!opened.persistent()) {
                throw new ParameterException(spec.commandLine(), "--backend mem holds no datasets between "
                        + "commands; describe a file, s3-embedded or s3:// backend");
            }
            try (ObjectBackend client = opened.backend().withMetrics(RequestMetrics.NONE);
                    Dataset data = QueryCommand.open(spec, dataset, copy.datasetName, layout, client, prefix, opened)) {
                describe(out, data, prefix, opened);
            }
        }
        return 0;
    }

    private static void describe(PrintWriter out, Dataset data, String prefix, Store opened) {
        DatasetSummary summary = data.summary();
        MetadataSchema schema = data.schema();
        out.println("Dataset:  " + summary.layout() + " at " + prefix + " in " + opened.location());
        out.printf(Locale.ROOT, "Samples:  %d; payload %.3f MB; stored %.3f MB in %d objects%n",
                summary.sampleCount(), summary.payloadBytes() / 1e6, summary.storedBytes() / 1e6,
                summary.objectCount());
        out.println("Payload fields: " + String.join(", ", schema.payloadFields()));
        GroupStatistics statistics = null;
        if (data instanceof SupportsMetadataScan scan) {
            DatasetMetadata metadata = scan.scanMetadata(summary.prefix());
            statistics = metadata.metadata().statistics(0, metadata.sampleCount());
        }
        out.printf(Locale.ROOT, "%-24s %-8s %10s  %-24s %-24s%n", "column", "type", "nulls", "min", "max");
        for (Column column : schema.columns()) {
            ColumnStatistics stats = statistics == null ? null : statistics.columns().get(column.name());
            out.printf(Locale.ROOT, "%-24s %-8s %10s  %-24s %-24s%n", column.name()
                    + (column.aliases().isEmpty() ? "" : " (" + String.join(", ", column.aliases()) + ")"),
                    column.type().name().toLowerCase(Locale.ROOT),
                    stats == null ? "?" : Long.toString(stats.nullCount()),
                    stats == null ? "?" : shorten(stats.min()), stats == null ? "?" : shorten(stats.max()));
        }
        out.flush();
    }

    private static String shorten(Object value) {
        String text = String.valueOf(value);
        return text.length() <= 24 ? text : text.substring(0, 21) + "...";
    }
}
