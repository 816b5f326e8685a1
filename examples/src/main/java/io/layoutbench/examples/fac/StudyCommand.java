package io.layoutbench.examples.fac;

import io.layoutbench.evaluation.tpch.TpchParquet;
import io.layoutbench.examples.fac.study.FileCodingStudy;
import io.layoutbench.examples.fac.study.Json;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code fac study}: the paper's real-file study on Parquet files. */
@Command(name = "study", mixinStandardHelpOptions = true,
        description = "The Fusion paper's real-file study on Parquet files: column chunks split by 1-100 MB fixed "
                + "blocks; storage overhead of padding, FAC (Algorithm 1), the refinements and the optimum; stripe "
                + "construction time and its share of a FAC put. With --tpch, first writes TPC-H lineitem and orders "
                + "(Snappy, dictionary), which needs io.trino.tpch:tpch and snappy-java on the class path.")
final class StudyCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Parameters(paramLabel = "FILE", arity = "0..*", description = "Parquet files to study.")
    List<Path> files = new ArrayList<>();

    @Option(names = "--tpch", paramLabel = "SF", description = "Also write and study TPC-H lineitem and orders at "
            + "scale factor SF.")
    Double tpch;

    @Option(names = "--scratch", defaultValue = "${java.io.tmpdir}/layoutbench-fac-study",
            description = "Scratch directory (TPC-H files, node directories of the timed put).")
    Path scratch;

    @Option(names = "--json", paramLabel = "FILE", description = "Write the full results as JSON to FILE.")
    Path json;

    @Override
    public Integer call() throws IOException {
        PrintWriter out = spec.commandLine().getOut();
        List<FileCodingStudy.Input> inputs = new ArrayList<>();
        if (tpch != null) {
            if (!TpchParquet.available()) {
                throw new IllegalStateException("--tpch needs io.trino.tpch:tpch:1.2 and org.xerial.snappy:snappy-java "
                        + "on the class path; run the study from layoutbench-fusion's tests instead (see docs/FAC.md)");
            }
            for (String table : List.of("lineitem", "orders")) {
                long rows = (long) Math.ceil((table.equals("lineitem") ? 6_001_215 : 1_500_000) * tpch);
                // Ten row groups, as the paper's lineitem has.
                TpchParquet.Written written = TpchParquet.write(table, tpch, (int) Math.max(1, (rows + 9) / 10),
                        scratch.resolve("tpch-sf" + tpch + "-" + table + ".parquet"));
                inputs.add(new FileCodingStudy.Input(written.file(), "TPC-H SF" + tpch));
            }
        }
        files.forEach(file -> inputs.add(new FileCodingStudy.Input(file, "files")));
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("Give Parquet files to study, or --tpch SF");
        }
        Files.createDirectories(scratch);
        List<FileCodingStudy.Result> results = FileCodingStudy.run(inputs, FileCodingStudy.Config.defaults(scratch),
                line -> {
                    out.println(line);
                    out.flush();
                });
        out.println(FileCodingStudy.toMarkdown(results));
        if (json != null) {
            Files.writeString(json, Json.write(FileCodingStudy.toJson(results, Map.of("files", inputs.toString()))));
            out.println("Wrote " + json);
        }
        return 0;
    }
}
