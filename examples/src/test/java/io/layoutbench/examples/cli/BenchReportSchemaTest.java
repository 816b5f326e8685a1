package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Runs {@code bench --scale tiny --backend mem --layouts l1,l2 --queries Q1,Q3 --reps 1 --profile none} in this
 * process once, and checks what it wrote: every row of the JSON has the documented fields, the ingest array is
 * there, the CSV header is the documented one, and the charts are PNG files.
 */
class BenchReportSchemaTest {

    /** The fields every row must have, as documented in docs/CLI.md. */
    static final List<String> REQUIRED_ROW_FIELDS = List.of("layout", "mode", "query", "scale", "profile",
            "backend", "run", "rep", "samples", "payload_bytes", "bytes", "requests", "hedged_requests", "seconds",
            "cost_usd",
            "predicted_seconds", "predicted_bytes", "predicted_requests", "predicted_cost_usd", "bound_seconds",
            "bound_ratio", "peak_heap_bytes", "peak_direct_bytes", "peak_mapped_bytes", "peak_rss_bytes");

    static final List<String> REQUIRED_INGEST_FIELDS = List.of("layout", "dataset", "backend", "prefix", "reused",
            "samples", "payload_bytes", "stored_bytes", "objects", "seconds", "bytes", "requests", "put_requests",
            "cost_usd", "peak_heap_bytes", "peak_direct_bytes", "peak_mapped_bytes", "peak_rss_bytes");

    static final String CSV_HEADER = "layout,mode,query,scale,profile,backend,run,rep,samples,payload_bytes,bytes,"
            + "requests,get_requests,put_requests,hedged_requests,seconds,first_sample_seconds,transfer_usd,"
            + "request_usd,compute_usd,"
            + "cost_usd,predicted_seconds,predicted_bytes,predicted_requests,predicted_cost_usd,bound_seconds,"
            + "bound_ratio,peak_heap_bytes,peak_direct_bytes,peak_mapped_bytes,peak_rss_bytes,sql";

    @TempDir
    static Path dir;

    static CliRunner result;
    static JsonNode json;

    @BeforeAll
    static void runBench() throws Exception {
        result = CliRunner.run("bench", "--scale", "tiny", "--backend", "mem", "--layouts", "l1,l2",
                "--queries", "Q1,Q3", "--reps", "1", "--profile", "none", "--max-buffered", "32MB",
                "--data-dir", dir.toString(),
                "--json", dir.resolve("out/bench.json").toString(), "--csv", dir.resolve("out/bench.csv").toString(),
                "--charts", dir.resolve("out/charts").toString());
        assertThat(result.exitCode()).as(result.err()).isZero();
        json = new ObjectMapper().readTree(dir.resolve("out/bench.json").toFile());
    }

    @Test
    void everyRowHasEveryRequiredField() {
        JsonNode rows = json.get("rows");
        assertThat(rows.isArray()).isTrue();
        // 2 layouts x 2 modes x 2 queries x (cold + warm) x 1 rep
        assertThat(rows).hasSize(16);
        for (JsonNode row : rows) {
            for (String field : REQUIRED_ROW_FIELDS) {
                assertThat(row.has(field)).as("row %s has %s", row, field).isTrue();
                assertThat(row.get(field).isNull()).as("row %s field %s", row, field).isFalse();
            }
            assertThat(row.get("run").asText()).isIn("cold", "warm");
            assertThat(row.get("mode").asText()).isIn("paper", "optimized");
            assertThat(row.get("layout").asText()).isIn("l1", "l2");
            assertThat(row.get("scale").asText()).isEqualTo("tiny");
            assertThat(row.get("profile").asText()).isEqualTo("none");
            assertThat(row.get("backend").asText()).isEqualTo("mem");
            assertThat(row.get("rep").asInt()).isEqualTo(1);
            assertThat(row.get("samples").asLong()).isPositive();
            assertThat(row.get("bytes").asLong()).isGreaterThanOrEqualTo(row.get("payload_bytes").asLong());
            assertThat(row.get("seconds").isNumber()).isTrue();
            assertThat(row.get("cost_usd").asDouble()).isPositive();
            assertThat(row.get("peak_heap_bytes").asLong()).isPositive();
            assertMemoryPeaks(row);
        }
    }

    /** Direct and mapped memory are never negative; on Linux the resident size holds at least the heap used. */
    private static void assertMemoryPeaks(JsonNode row) {
        assertThat(row.get("peak_direct_bytes").asLong()).isNotNegative();
        assertThat(row.get("peak_mapped_bytes").asLong()).isNotNegative();
        if (Files.isReadable(Path.of("/proc/self/status"))) {
            assertThat(row.get("peak_rss_bytes").asLong()).as("row %s", row)
                    .isGreaterThanOrEqualTo(row.get("peak_heap_bytes").asLong());
        } else {
            assertThat(row.get("peak_rss_bytes").asLong()).isEqualTo(-1);
        }
    }

    @Test
    void everyCombinationRunsOnce() {
        Set<String> keys = new HashSet<>();
        for (JsonNode row : json.get("rows")) {
            keys.add(row.get("layout").asText() + row.get("mode").asText() + row.get("query").asText()
                    + row.get("run").asText() + row.get("rep").asInt());
        }
        assertThat(keys).hasSize(16);
    }

    @Test
    void ingestArrayHasOneEntryPerLayout() {
        JsonNode ingest = json.get("ingest");
        assertThat(ingest.isArray()).isTrue();
        assertThat(ingest).hasSize(2);
        for (JsonNode row : ingest) {
            for (String field : REQUIRED_INGEST_FIELDS) {
                assertThat(row.has(field)).as("ingest %s has %s", row, field).isTrue();
            }
            assertThat(row.get("samples").asLong()).isEqualTo(1030);
            assertThat(row.get("put_requests").asLong()).isPositive();
            assertThat(row.get("bytes").asLong()).isGreaterThanOrEqualTo(row.get("payload_bytes").asLong());
            assertThat(row.get("reused").asBoolean()).isFalse();
            assertMemoryPeaks(row);
        }
        assertThat(json.get("settings").get("scale").asText()).isEqualTo("tiny");
        assertThat(json.get("settings").get("peak_rss_bytes").asLong()).isNotZero();
    }

    @Test
    void settingsSayTheByteBudgetAndWhetherTheHeapWasKeptGrown() {
        assertThat(json.get("settings").get("max_buffered_bytes").asLong()).isEqualTo(32L << 20);
        assertThat(json.get("settings").get("heap_kept_grown").asBoolean()).isTrue();   // HotSpot
    }

    @Test
    void csvHasTheDocumentedHeaderAndOneLinePerRow() throws Exception {
        List<String> lines = Files.readAllLines(dir.resolve("out/bench.csv"), StandardCharsets.UTF_8);

        assertThat(lines.get(0)).isEqualTo(CSV_HEADER);
        assertThat(lines).hasSize(17);
        int columns = CSV_HEADER.split(",").length;
        // The last column (sql) is quoted when it holds a comma; Q1 and Q3 hold none.
        assertThat(lines.subList(1, lines.size())).allSatisfy(line ->
                assertThat(line.split(",", -1)).hasSize(columns));
    }

    @Test
    void csvColumnsAreTheJsonRowFields() {
        List<String> jsonFields = new java.util.ArrayList<>();
        json.get("rows").get(0).fieldNames().forEachRemaining(jsonFields::add);
        assertThat(String.join(",", jsonFields)).isEqualTo(CSV_HEADER);
    }

    @Test
    void chartsArePngFiles() throws Exception {
        try (var files = Files.list(dir.resolve("out/charts"))) {
            List<Path> charts = files.toList();
            assertThat(charts).extracting(p -> p.getFileName().toString())
                    .contains("fig2a-time-warm.png", "fig3-bytes-warm.png", "table5-cost.png");
            for (Path chart : charts) {
                byte[] header = new byte[8];
                try (var in = Files.newInputStream(chart)) {
                    assertThat(in.read(header)).isEqualTo(8);
                }
                assertThat(header).startsWith(0x89, 'P', 'N', 'G');
            }
        }
    }

    @Test
    void printsTheTablesAndWhereTheResultsAre() {
        assertThat(result.out()).contains("Warm runs (scale tiny, profile none, backend mem)")
                .contains("Cold runs").contains("Cost breakdown").contains("Ingest")
                .contains("JSON:   ").contains("bench.json").contains("CSV:    ").contains("Charts: ");
    }
}
