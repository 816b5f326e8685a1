package io.layoutbench.examples.fac.study;

import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.fusion.layout.FacLayout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * Regenerates the numbers of docs/FAC.md. Skipped unless {@code -Dfac.study.out=DIR} is given:
 *
 * <pre>
 * mvn -q -pl examples -am verify -Dtest=FacStudyRun \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dfac.study.out=/tmp/fac-study \
 *     [-Dfac.study.sf=1] [-Dfac.study.scale=mini] [-Dfac.study.synthetic=true] [-Dfac.study.files=true] \
 *     [-Dfac.study.budget=20000000]
 * </pre>
 *
 * Writes {@code synthetic.json}, {@code synthetic.md}, {@code files.json} and {@code files.md} into DIR, and keeps
 * the Parquet files it studied under {@code DIR/data}.
 */
public class FacStudyRun {

    @Test
    void run() throws IOException {
        String out = System.getProperty("fac.study.out");
        Assumptions.assumeTrue(out != null && !out.isBlank(), "set -Dfac.study.out=DIR to run the FAC study");
        execute(Path.of(out));
    }

    /** The same from a plain JVM: {@code java -cp ... FacStudyRun DIR} (settings as system properties). */
    public static void main(String[] args) throws IOException {
        execute(Path.of(args[0]));
    }

    static void execute(Path out) throws IOException {
        Path dir = out.toAbsolutePath();
        Files.createDirectories(dir);
        if (Boolean.parseBoolean(System.getProperty("fac.study.synthetic", "true"))) {
            SyntheticOverheadStudy.Report report = SyntheticOverheadStudy.run(SyntheticOverheadStudy.Config.paper(),
                    System.out::println);
            Files.writeString(dir.resolve("synthetic.json"), Json.write(report.toJson()));
            Files.writeString(dir.resolve("synthetic.md"), report.toMarkdown() + optimumMarkdown(report));
        }
        if (Boolean.parseBoolean(System.getProperty("fac.study.files", "true"))) {
            double sf = Double.parseDouble(System.getProperty("fac.study.sf", "1"));
            ImageNetScale scale = ImageNetScale.fromName(System.getProperty("fac.study.scale", "tiny"));
            Path data = dir.resolve("data");
            List<FileCodingStudy.Input> inputs = new ArrayList<>();
            Map<String, Object> provenance = new LinkedHashMap<>();
            for (String[] table : new String[][] {{"lineitem", "10"}, {"orders", "10"}}) {
                int rowGroup = rowGroupRowsFor(table[0], sf, Integer.parseInt(table[1]));
                TpchParquet.Written written = TpchParquet.write(table[0], sf, rowGroup,
                        data.resolve("tpch-sf" + sf + "-" + table[0] + ".parquet"));
                System.out.printf(Locale.ROOT, "wrote %s: %d rows, %.1f MB%n", written.file(), written.rows(),
                        written.bytes() / 1e6);
                provenance.put(table[0], Map.of("scale_factor", sf, "rows", written.rows(), "rows_per_row_group",
                        rowGroup, "writer", "parquet-java 1.18.1, SNAPPY, dictionary on, PARQUET_1_0 pages"));
                inputs.add(new FileCodingStudy.Input(written.file(), "TPC-H SF" + sf));
            }
            String name = scale.scaleName();
            inputs.addAll(writeL3(data, name, scale, "l3", Map.of(), "L3 " + name + " (l3 defaults)"));
            inputs.addAll(writeL3(data, name, scale, "l3", Map.of("row-group-size",
                    Long.toString(FacLayout.DEFAULT_ROW_GROUP_SIZE)), "L3 " + name + " (fac layout's "
                    + (FacLayout.DEFAULT_ROW_GROUP_SIZE >> 10) + " KiB row groups)"));
            provenance.put("l3", Map.of("scale", name, "seed", 42, "file_size", "64 MiB",
                    "row_group_size", "128 MiB (l3 default) and " + (FacLayout.DEFAULT_ROW_GROUP_SIZE >> 10)
                            + " KiB (fac default)"));
            FileCodingStudy.Config defaults = FileCodingStudy.Config.defaults(dir.resolve("scratch"));
            FileCodingStudy.Config config = new FileCodingStudy.Config(defaults.codes(), defaults.blockSizes(),
                    Long.getLong("fac.study.budget", defaults.optimumBudget()), defaults.timingRuns(),
                    defaults.measurePut(), defaults.scratch());
            provenance.put("optimum_node_budget", config.optimumBudget());
            List<FileCodingStudy.Result> results = FileCodingStudy.run(inputs, config, System.out::println);
            Files.writeString(dir.resolve("files.json"), Json.write(FileCodingStudy.toJson(results, provenance)));
            Files.writeString(dir.resolve("files.md"), FileCodingStudy.toMarkdown(results));
        }
    }

    /** Rows per row group that give {@code groups} row groups, as the paper's lineitem has 10. */
    private static int rowGroupRowsFor(String table, double sf, int groups) {
        long rows = (long) Math.ceil((table.equals("lineitem") ? 6_001_215 : 1_500_000) * sf);
        return (int) Math.max(1, (rows + groups - 1) / groups);
    }

    private static List<FileCodingStudy.Input> writeL3(Path data, String scaleName, ImageNetScale scale,
            String layout, Map<String, String> options, String dataset) throws IOException {
        String prefix = "l3-" + scaleName + "-" + (options.isEmpty() ? "default" : "rg256k");
        try (FileBackend backend = new FileBackend(data)) {
            try (DatasetWriter writer = StorageLayouts.get(layout).create(backend, prefix, MetadataSchema.imageNet(),
                    options)) {
                SyntheticImageNet.of(scale, 42, false).samples().forEach(writer::add);
                writer.commit();
            }
        }
        try (Stream<Path> files = Files.walk(data.resolve(prefix))) {
            return files.filter(p -> p.toString().endsWith(".parquet")).sorted()
                    .map(p -> new FileCodingStudy.Input(p, dataset)).toList();
        }
    }

    private static String optimumMarkdown(SyntheticOverheadStudy.Report report) {
        StringBuilder out = new StringBuilder("\nSmall inputs against the exact optimum (mean extra overhead; proven "
                + "optimal / trials)\n\n| code | Zipf | chunks | FAC | FAC refined | optimum | proven | median solve |"
                + "\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SyntheticOverheadStudy.OptimumCell cell : report.optimum()) {
            out.append(String.format(Locale.ROOT, "| %s | %.2f | %d | %.2f%% | %.2f%% | %.2f%% | %d/%d | %.0f ms |%n",
                    cell.code(), cell.exponent(), cell.chunks(), 100 * cell.facExtra(), 100 * cell.refinedExtra(),
                    100 * cell.optimumExtra(), cell.proven(), cell.trials(), cell.medianSolveMillis()));
        }
        return out.toString();
    }
}
