package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

/** {@code bench --backend s3-embedded}: a real S3 server in the process, datasets kept and reused between runs. */
class EmbeddedS3BenchTest {

    @TempDir
    Path dir;

    @Test
    void benchRunsAgainstTheEmbeddedServerAndReusesItsDatasets() throws Exception {
        String[] args = {"bench", "--backend", "s3-embedded", "--scale", "tiny", "--layouts", "l2", "--queries", "Q3",
            "--mode", "paper", "--profile", "none", "--no-charts", "--data-dir", dir.toString(),
            "--json", dir.resolve("first.json").toString()};
        CliRunner first = CliRunner.run(args);
        assertThat(first.exitCode()).as(first.err()).isZero();

        args[args.length - 1] = dir.resolve("second.json").toString();
        CliRunner second = CliRunner.run(args);
        assertThat(second.exitCode()).as(second.err()).isZero();
        assertThat(second.err()).contains("reusing 1030 samples");

        ObjectMapper mapper = new ObjectMapper();
        JsonNode firstJson = mapper.readTree(dir.resolve("first.json").toFile());
        JsonNode secondJson = mapper.readTree(dir.resolve("second.json").toFile());
        assertThat(firstJson.get("ingest").get(0).get("reused").asBoolean()).isFalse();
        assertThat(firstJson.get("ingest").get(0).get("put_requests").asLong()).isPositive();
        assertThat(secondJson.get("ingest").get(0).get("reused").asBoolean()).isTrue();
        assertThat(secondJson.get("ingest").get(0).get("put_requests").asLong())
                .isEqualTo(firstJson.get("ingest").get(0).get("put_requests").asLong());
        for (JsonNode row : secondJson.get("rows")) {
            assertThat(row.get("backend").asText()).isEqualTo("s3-embedded");
            assertThat(row.get("samples").asLong()).isEqualTo(4);
            assertThat(row.get("predicted_bytes").asLong()).isEqualTo(row.get("bytes").asLong());
            assertThat(row.get("predicted_requests").asLong()).isEqualTo(row.get("requests").asLong());
        }
    }
}
