package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** generate, ingest (synthetic, from a folder, from a manifest) and query, end to end on the file backend. */
class IngestAndQueryCommandsTest {

    @TempDir
    Path dir;

    @Test
    void ingestThenQueryWritesTheMatchingSamples() throws Exception {
        String dataDir = dir.resolve("data").toString();
        CliRunner ingest = CliRunner.run("ingest", "--scale", "tiny", "--layouts", "l2", "--data-dir", dataDir);
        assertThat(ingest.exitCode()).as(ingest.err()).isZero();
        assertThat(ingest.out()).contains("imagenet-tiny-seed42/l2.shard-size=64MB").contains("1030");

        CliRunner again = CliRunner.run("ingest", "--scale", "tiny", "--layouts", "l2", "--data-dir", dataDir);
        assertThat(again.exitCode()).isZero();
        assertThat(again.out()).contains("yes");   // the Reused column

        Path out = dir.resolve("cellos");
        CliRunner query = CliRunner.run("query", "--scale", "tiny", "--layout", "l2", "--profile", "none",
                "--where", "human_label = 'cello'", "--out", out.toString(), "--data-dir", dataDir);
        assertThat(query.exitCode()).as(query.err()).isZero();
        assertThat(query.out()).contains("Samples:  4").contains("measured").contains("predicted")
                .containsPattern("Warm-up:  [0-9.]+ s before T");
        try (Stream<Path> files = Files.walk(out)) {
            assertThat(files.filter(Files::isRegularFile).toList()).hasSize(4)
                    .allSatisfy(file -> assertThat(file.getFileName().toString()).endsWith(".JPEG"));
        }

        CliRunner limited = CliRunner.run("query", "--scale", "tiny", "--layout", "l2", "--profile", "none",
                "--where", "width >= 1024 AND height >= 1024", "--limit", "3", "--data-dir", dataDir);
        assertThat(limited.exitCode()).isZero();
        assertThat(limited.out()).contains("Samples:  3");

        CliRunner unwarmed = CliRunner.run("query", "--scale", "tiny", "--layout", "l2", "--profile", "none",
                "--where", "human_label = 'cello'", "--no-warm-up", "--data-dir", dataDir);
        assertThat(unwarmed.exitCode()).as(unwarmed.err()).isZero();
        assertThat(unwarmed.out()).contains("Samples:  4").contains("Warm-up:  none (--no-warm-up)");

        CliRunner badPredicate = CliRunner.run("query", "--scale", "tiny", "--layout", "l2", "--profile", "none",
                "--where", "colour = 'red'", "--data-dir", dataDir);
        assertThat(badPredicate.exitCode()).isEqualTo(2);
        assertThat(badPredicate.errLines()).singleElement().asString().contains("colour");
    }

    @Test
    void generatedFoldersAndManifestsIngestAndQueryByName() throws Exception {
        Path images = dir.resolve("images");
        CliRunner generate = CliRunner.run("generate", "--scale", "tiny", "--out", images.toString(), "--manifest");
        assertThat(generate.exitCode()).as(generate.err()).isZero();
        assertThat(images.resolve("cello")).isDirectory();
        assertThat(images.resolve(GenerateCommand.MANIFEST_FILE)).isRegularFile();
        try (Stream<Path> cellos = Files.list(images.resolve("cello"))) {
            assertThat(cellos.toList()).hasSize(4);
        }
        List<String> manifest = Files.readAllLines(images.resolve(GenerateCommand.MANIFEST_FILE));
        assertThat(manifest.get(0)).isEqualTo("path,label,width,height,filesize_bytes");
        assertThat(manifest).hasSize(1031);

        String dataDir = dir.resolve("data").toString();
        CliRunner fromFolder = CliRunner.run("ingest", "--from", images.toString(), "--name", "mine",
                "--layouts", "l2", "--data-dir", dataDir);
        assertThat(fromFolder.exitCode()).as(fromFolder.err()).isZero();
        assertThat(fromFolder.out()).contains("mine/l2.shard-size=64MB");

        CliRunner fromManifest = CliRunner.run("ingest", "--manifest",
                images.resolve(GenerateCommand.MANIFEST_FILE).toString(), "--layouts", "l1", "--data-dir", dataDir);
        assertThat(fromManifest.exitCode()).as(fromManifest.err()).isZero();
        assertThat(fromManifest.out()).contains("manifest/l1");

        for (String[] target : List.of(new String[] {"mine", "l2"}, new String[] {"manifest", "l1"})) {
            CliRunner query = CliRunner.run("query", "--dataset", target[0], "--layout", target[1], "--profile",
                    "none", "--where", "label IN ('Old_English_sheepdog', 'giant_panda', 'water_buffalo')",
                    "--data-dir", dataDir);
            assertThat(query.exitCode()).as(query.err()).isZero();
            assertThat(query.out()).contains("Samples:  12");
        }
    }

    @Test
    void ingestAndQueryRefuseTheMemoryBackend() {
        CliRunner ingest = CliRunner.run("ingest", "--scale", "tiny", "--backend", "mem", "--data-dir",
                dir.toString());

        assertThat(ingest.exitCode()).isEqualTo(2);
        assertThat(ingest.errLines()).singleElement().asString().contains("--backend mem keeps nothing");
    }
}
