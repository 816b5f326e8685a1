package io.layoutbench.examples.advise;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.examples.bench.DatasetStore;
import io.layoutbench.examples.cli.LayoutBenchCli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** {@code layoutbench advise} run in this process: its report, its JSON, and its one-line usage errors. */
class AdviseCommandTest {

    @TempDir
    Path dir;

    record Run(int exit, String out, String err) {
        List<String> errLines() {
            return err.lines().filter(line -> !line.isBlank()).toList();
        }
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = LayoutBenchCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new Run(exit, out.toString(), err.toString());
    }

    @Test
    void advisesOnTinyAndWritesJson() throws IOException {
        Path json = dir.resolve("advice.json");
        Run run = run("advise", "--scale", "tiny", "--workload", "Q1=1,Q3=5,Q8=0.5", "--json", json.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Advice for imagenet-tiny-seed42: 1,030 samples")
                .contains("Workload: 3 queries (Q1 x1, Q3 x5, Q8 x0.5)")
                .contains("objective: time").contains("rank").contains("Why").contains("#1 ")
                .contains("Per query, #1");
        JsonNode tree = new ObjectMapper().readTree(json.toFile());
        assertThat(tree.path("settings").path("objective").asText()).isEqualTo("time");
        assertThat(tree.path("settings").path("max_buffered_bytes").asLong())
                .as("the library's default for this JVM").isEqualTo(QueryOptions.defaultMaxBufferedBytes());
        JsonNode ranked = tree.path("ranked");
        assertThat(ranked.size()).isGreaterThan(40);
        assertThat(ranked.get(0).path("rank").asInt()).isEqualTo(1);
        assertThat(ranked.get(0).path("queries").size()).isEqualTo(3);
        assertThat(ranked.get(0).path("reasons").size()).isGreaterThanOrEqualTo(3);
        double previous = 0;
        for (JsonNode row : ranked) {
            assertThat(row.path("score").asDouble()).isGreaterThanOrEqualTo(previous);
            previous = row.path("score").asDouble();
        }
    }

    @Test
    void theByteBudgetIsTheAdvisedJobsWhenGivenAndTheReportSaysWhichItUsed() throws IOException {
        Path json = dir.resolve("budget.json");
        Run run = run("advise", "--scale", "tiny", "--workload", "Q8=1", "--max-buffered", "64MB", "--json",
                json.toString());

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("64 MiB byte budget");
        assertThat(new ObjectMapper().readTree(json.toFile()).path("settings").path("max_buffered_bytes").asLong())
                .isEqualTo(64L << 20);
    }

    @Test
    void readsAWorkloadFileAndPricesCold() throws IOException {
        Path file = dir.resolve("workload.tsv");
        Files.writeString(file, "# my queries\n2\thuman_label = 'cello'\n0.5\twidth >= 1024 AND height >= 1024\n");
        Run run = run("advise", "--scale", "tiny", "--workload", file.toString(), "--objective", "tradeoff",
                "--usd-per-hour", "3", "--cold", "--layouts", "l2,l3", "--top", "5");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("W1 x2, W2 x0.5").contains("Priced cold").contains("tradeoff")
                .contains("Showing 5 of").doesNotContain(" l1 ");
    }

    @Test
    void readsTheMetadataOfAnIngestedDataset() {
        Path data = dir.resolve("data");
        try (ObjectBackend backend = ObjectBackends.open("file:" + data.resolve("objects").toAbsolutePath())) {
            Map<String, String> options = Map.of("shard-size", "64MB");
            try (DatasetWriter writer = StorageLayouts.get("l2").create(backend,
                    DatasetStore.prefix("mine", "l2", options), MetadataSchema.imageNet(), options)) {
                SyntheticImageNet.of(ImageNetScale.TINY, 7, false).samples().limit(200).forEach(writer::add);
                writer.commit();
            }
        }
        Run run = run("advise", "--dataset", "mine", "--data-dir", data.toString(), "--workload", "Q3,Q8",
                "--top", "3");

        assertThat(run.exit()).as(run.err()).isZero();
        assertThat(run.out()).contains("Advice for mine: 200 samples").contains("file 64MB");

        Run missing = run("advise", "--dataset", "nope", "--data-dir", data.toString());
        assertThat(missing.exit()).isEqualTo(LayoutBenchCli.EXIT_USAGE);
        assertThat(missing.errLines()).singleElement().asString().contains("No l1, l2 or l3 dataset 'nope'");
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--objective fast|Unknown objective 'fast'",
        "--objective tradeoff|--objective tradeoff needs --usd-per-hour",
        "--usd-per-hour 3|--usd-per-hour only applies to --objective tradeoff",
        "--workload Q1=1,Q99=2|Unknown query 'Q99'",
        "--workload Q1=-1|Weight of query Q1 must be a number > 0",
        "--workload Q1,Q1|Query Q1 appears twice",
        "--workload /no/such/workload.tsv|Workload file /no/such/workload.tsv does not exist",
        "--layouts l1,fac|Unknown layout 'fac' for advise",
        "--concurrency 0|--concurrency must be at least 1",
        "--max-buffered lots|--max-buffered must be a size",
        "--scale huge|'huge'",
        "--profile m5.huge|'m5.huge'",
        "--warm --cold|mutually exclusive",
    })
    void wrongCommandLinesAreOneLineUsageErrors(String args, String message) {
        String[] argv = ("advise --scale tiny " + args).split(" ");
        Run run = run(argv);

        assertThat(run.exit()).isEqualTo(LayoutBenchCli.EXIT_USAGE);
        assertThat(run.errLines()).singleElement().asString().startsWith("layoutbench advise: ").contains(message);
        assertThat(run.out()).isEmpty();
    }

    @Test
    void aPredicateThatDoesNotParseIsAUsageError() throws IOException {
        Path file = dir.resolve("bad.tsv");
        Files.writeString(file, "1\thuman_label = \n");
        Run run = run("advise", "--scale", "tiny", "--workload", file.toString());

        assertThat(run.exit()).isEqualTo(LayoutBenchCli.EXIT_USAGE);
        assertThat(run.errLines()).singleElement().asString().contains("bad.tsv line 1");
    }

    @Test
    void anUnknownColumnIsAUsageError() throws IOException {
        Path file = dir.resolve("unknown.tsv");
        Files.writeString(file, "1\tcolour = 'red'\n");
        Run run = run("advise", "--scale", "tiny", "--workload", file.toString());

        assertThat(run.exit()).isEqualTo(LayoutBenchCli.EXIT_USAGE);
        assertThat(run.errLines()).singleElement().asString().contains("W1").contains("colour");
    }
}
