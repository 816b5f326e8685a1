package io.layoutbench.examples.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.datasets.synthetic.SyntheticJpeg;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A user's folders and manifests as a hostile or careless user writes them, through ingest and query --out. */
class UserDatasetCommandsTest {

    private static final List<String> LAYOUTS = List.of("l1", "l2", "l3", "fac");

    @TempDir
    Path dir;

    @Test
    void aRepeatedNameInAManifestIsRefusedInEveryLayoutNamingBothLines() throws IOException {
        image("a/dup.png", 1000);
        image("b/dup.png", 1100);
        Path manifest = write("m.csv", "path,filename,label\na/dup.png,dup.png,x\nb/dup.png,dup.png,y\n");
        for (String layout : LAYOUTS) {
            CliRunner ingest = CliRunner.run("ingest", "--manifest", manifest.toString(), "--layouts", layout,
                    "--data-dir", dir.resolve("data").toString());

            assertThat(ingest.exitCode()).as(layout).isEqualTo(1);
            assertThat(ingest.errLines().get(0)).as(layout).endsWith(" ingest: " + manifest + " line 3: sample name "
                    + "'dup.png' (" + dir.resolve("b/dup.png") + ") is already the name of " + manifest + " line 2 ("
                    + dir.resolve("a/dup.png") + "); the samples of a dataset need distinct names, as the layouts "
                    + "store and find them by name: give the rows distinct values in a 'filename' column");
            CliRunner query = CliRunner.run("query", "--dataset", "m", "--layout", layout, "--profile", "none",
                    "--where", "filesize_bytes > 0", "--data-dir", dir.resolve("data").toString());
            assertThat(query.exitCode()).as("nothing committed in %s", layout).isEqualTo(2);
        }
    }

    @Test
    void absoluteDotDotSpacedAndNonAsciiPathsIngestIntoEveryLayoutAndComeOutInsideTheDirectory()
            throws IOException {
        Map<String, byte[]> files = Map.of(
                "data/a/x y/\u00e9t\u00e9.jpg", image("data/a/x y/\u00e9t\u00e9.jpg", 1000),
                "data/b/\u732b.jpg", image("data/b/\u732b.jpg", 1100),
                "local/z.jpg", image("lists/local/z.jpg", 1200));
        Path manifest = write("lists/m.csv", "path,label\n"
                + dir.resolve("data/a/x y/\u00e9t\u00e9.jpg").toAbsolutePath() + ",x\n"
                + "../data/b/\u732b.jpg,y\n"
                + "local/z.jpg,z\n");
        String data = dir.resolve("data-dir").toString();
        CliRunner ingest = CliRunner.run("ingest", "--manifest", manifest.toString(), "--layouts",
                String.join(",", LAYOUTS), "--data-dir", data);
        assertThat(ingest.exitCode()).as(ingest.err()).isZero();

        for (String layout : LAYOUTS) {
            Path out = dir.resolve("out-" + layout);
            CliRunner query = CliRunner.run("query", "--dataset", "m", "--layout", layout, "--profile", "none",
                    "--where", "filesize_bytes > 0", "--out", out.toString(), "--data-dir", data);

            assertThat(query.exitCode()).as(query.err()).isZero();
            assertThat(query.out()).as(layout).contains("Samples:  3 ").contains(", 3 files written to "
                    + out.toRealPath());
            Map<String, byte[]> written;
            try (Stream<Path> walk = Files.walk(out)) {
                written = walk.filter(Files::isRegularFile).collect(Collectors.toMap(
                        file -> out.relativize(file).toString(), UserDatasetCommandsTest::read));
            }
            assertThat(written).as(layout).containsOnlyKeys(files.keySet());
            files.forEach((name, bytes) -> assertThat(written.get(name)).as(name).isEqualTo(bytes));
        }
    }

    @Test
    void aDatasetIsReusedOnlyFromTheSameSourceAndTwoNamesOfOnePrefixAreKeptApart() throws IOException {
        image("A/cat/x.jpg", 1000);
        image("B/dog/y.jpg", 1100);
        String data = dir.resolve("data").toString();
        String prefix = "a_b/l2.shard-size=64MB";

        CliRunner first = CliRunner.run("ingest", "--from", dir.resolve("A").toString(), "--name", "a/b",
                "--layouts", "l2", "--data-dir", data);
        assertThat(first.exitCode()).as(first.err()).isZero();

        CliRunner other = CliRunner.run("ingest", "--from", dir.resolve("B").toString(), "--name", "a_b",
                "--layouts", "l2", "--data-dir", data);
        assertThat(other.exitCode()).isEqualTo(2);
        assertThat(other.errLines()).singleElement().asString().contains(" ingest: Dataset name 'a_b' is stored at "
                + prefix + ", which holds dataset 'a/b' (from media folder " + dir.resolve("A")
                + "): in a prefix, characters "
                + "other than letters, digits, '.', '_' and '-' become '_'; choose another --name, or add --force to "
                + "replace it");

        CliRunner wrongName = CliRunner.run("query", "--dataset", "a_b", "--layout", "l2", "--profile", "none",
                "--where", "filesize_bytes > 0", "--data-dir", data);
        assertThat(wrongName.exitCode()).isEqualTo(2);
        assertThat(wrongName.errLines()).singleElement().asString().contains("No l2 dataset 'a_b' in ")
                .contains(": its prefix " + prefix + " holds dataset 'a/b'");
        CliRunner rightName = CliRunner.run("query", "--dataset", "a/b", "--layout", "l2", "--profile", "none",
                "--where", "filesize_bytes > 0", "--data-dir", data);
        assertThat(rightName.out()).as(rightName.err()).contains("Samples:  1 ");

        image("A/cat/more.jpg", 1200);
        CliRunner added = CliRunner.run("ingest", "--from", dir.resolve("A").toString(), "--name", "a/b",
                "--layouts", "l2", "--data-dir", data);
        assertThat(added.exitCode()).as(added.err()).isZero();
        assertThat(added.out()).startsWith("re-ingesting " + prefix + ": 1 more file in media folder "
                + dir.resolve("A") + " than at the last ingest (1 then, 2 now)\n");
        assertThat(reused(added)).isEqualTo("no");

        CliRunner same = CliRunner.run("ingest", "--from", dir.resolve("A").toString(), "--name", "a/b",
                "--layouts", "l2", "--data-dir", data);
        assertThat(same.out()).doesNotContain("re-ingesting");
        assertThat(reused(same)).isEqualTo("yes");
    }

    /** The Reused column of an ingest table's one row. */
    private static String reused(CliRunner ingest) {
        List<String> row = ingest.out().lines().filter(line -> line.contains("shard-size=64MB"))
                .filter(line -> !line.startsWith("re-ingesting")).toList();
        assertThat(row).hasSize(1);
        String[] cells = row.get(0).trim().split("\\s+");
        return cells[cells.length - 2];
    }

    private byte[] image(String relative, int length) throws IOException {
        byte[] bytes = SyntheticJpeg.generate(length, 20, 10, length);
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        return bytes;
    }

    private Path write(String relative, String text) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
