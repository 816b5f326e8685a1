package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/**
 * Runs {@code bench --dataset speech --scale tiny --backend mem --layouts l1,l2,l3 --profile none} in this process
 * once: every layout stores the clips' two payload fields, and every speech query returns the number of clips the
 * generator puts there, in every layout and mode, cold and warm.
 */
class SpeechBenchTest {

    /** S1-S10 at tiny, as SpeechQueries documents them. */
    private static final Map<String, Long> TINY_COUNTS = Map.of("S1", 1L, "S2", 5L, "S3", 10L, "S4", 4L, "S5", 1L,
            "S6", 4L, "S7", 1L, "S8", 1L, "S9", 2L, "S10", 5L);

    @TempDir
    static Path dir;

    static CliRunner result;
    static JsonNode json;

    @BeforeAll
    static void runBench() throws Exception {
        result = CliRunner.run("bench", "--dataset", "speech", "--scale", "tiny", "--backend", "mem",
                "--layouts", "l1,l2,l3", "--reps", "1", "--profile", "none", "--data-dir", dir.toString(),
                "--json", dir.resolve("out/bench.json").toString(), "--csv", dir.resolve("out/bench.csv").toString(),
                "--charts", dir.resolve("out/charts").toString());
        assertThat(result.exitCode()).as(result.err()).isZero();
        json = new ObjectMapper().readTree(dir.resolve("out/bench.json").toFile());
    }

    @Test
    void everyQueryReturnsTheGeneratedClipsInEveryLayoutAndMode() {
        JsonNode rows = json.get("rows");
        // 3 layouts x 2 modes x 10 queries x (cold + warm)
        assertThat(rows).hasSize(120);
        for (JsonNode row : rows) {
            String query = row.get("query").asText();
            assertThat(row.get("samples").asLong()).as("%s", row).isEqualTo(TINY_COUNTS.get(query));
            assertThat(row.get("scale").asText()).isEqualTo("speech-tiny");
            assertThat(row.get("bytes").asLong()).isGreaterThanOrEqualTo(row.get("payload_bytes").asLong());
        }
    }

    @Test
    void everyLayoutReturnsTheSamePayloadForAQuery() {
        for (String query : TINY_COUNTS.keySet()) {
            List<Long> payloads = rowsOf(query).stream().map(row -> row.get("payload_bytes").asLong()).distinct()
                    .toList();
            assertThat(payloads).as(query).singleElement().satisfies(bytes -> assertThat(bytes).isPositive());
        }
    }

    @Test
    void ingestStoresTheTwentyClipsWithBothFields() {
        JsonNode ingest = json.get("ingest");
        assertThat(ingest).hasSize(3);
        long payload = -1;
        for (JsonNode row : ingest) {
            assertThat(row.get("samples").asLong()).isEqualTo(20);
            assertThat(row.get("dataset").asText()).isEqualTo("speech-tiny-seed42");
            if (payload >= 0) {
                assertThat(row.get("payload_bytes").asLong()).isEqualTo(payload);
            }
            payload = row.get("payload_bytes").asLong();
        }
        // The WAV files and the transcripts: a few MB.
        assertThat(payload).isBetween(3_000_000L, 10_000_000L);
        assertThat(json.get("settings").get("scale").asText()).isEqualTo("speech-tiny");
        assertThat(json.get("settings").get("queries")).hasSize(10);
    }

    @Test
    void chartsSplitSmallAndLargeResults() throws Exception {
        try (var files = Files.list(dir.resolve("out/charts"))) {
            assertThat(files.map(p -> p.getFileName().toString()).toList())
                    .contains("fig2a-time-warm.png", "fig2b-time-warm.png", "fig3-bytes-warm.png", "table5-cost.png");
        }
        assertThat(result.out()).contains("Warm runs (scale speech-tiny, profile none, backend mem)");
    }

    private static List<JsonNode> rowsOf(String query) {
        List<JsonNode> rows = new java.util.ArrayList<>();
        json.get("rows").forEach(row -> {
            if (row.get("query").asText().equals(query)) {
                rows.add(row);
            }
        });
        return rows;
    }
}
