package io.layoutbench.datasets.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a {@link ManifestSource} does whatever its manifest's format: each subclass writes the same tables in its
 * format, and every format must give the same schema, rows and errors (with its own way of naming a row).
 */
abstract class ManifestSourceContractTest {

    @TempDir
    Path dir;

    byte[] clipA;
    byte[] clipB;
    byte[] clipC;
    byte[] textA;

    /** A column of a test table: the type its values are written with where the format has types (Parquet). */
    record Col(String name, ColumnType type) {
    }

    /** A manifest's content, written by each format in its own way; null is NULL. */
    record Table(List<Col> columns, List<List<Object>> rows) {
        static Table of(List<Col> columns, Object[]... rows) {
            List<List<Object>> list = new ArrayList<>();
            for (Object[] row : rows) {
                list.add(Arrays.asList(row));
            }
            return new Table(columns, list);
        }
    }

    /** The format under test. */
    abstract ManifestFormat format();

    /** Writes {@code table} to {@code file} in the format under test. */
    abstract void write(Path file, Table table) throws IOException;

    /** How errors name row {@code row} (0-based, the header not counted) of {@code manifest}. */
    abstract String origin(Path manifest, int row);

    @BeforeEach
    void writeFiles() throws IOException {
        clipA = bytes(100, 1);
        clipB = bytes(250, 2);
        clipC = bytes(7, 3);
        textA = "hello".getBytes(StandardCharsets.UTF_8);
        write("clips/a.wav", clipA);
        write("clips/b.wav", clipB);
        write("clips/c.wav", clipC);
        write("texts/a.txt", textA);
    }

    /** Three clips; duration 1.0 is written as the integer 1 where the format allows, so the column mixes both. */
    Table speech() {
        return Table.of(List.of(new Col("path", ColumnType.STRING), new Col("speaker", ColumnType.BIGINT),
                        new Col("duration", ColumnType.DOUBLE), new Col("train", ColumnType.BOOLEAN),
                        new Col("transcript", ColumnType.STRING), new Col("note", ColumnType.STRING)),
                new Object[] {"../clips/a.wav", 7L, 1.0, true, "hello, \"world\"", null},
                new Object[] {"../clips/b.wav", null, 2.5, false, "two\nlines", null},
                new Object[] {dir.resolve("clips/c.wav").toAbsolutePath().toString(), -3L, null, null, null, null});
    }

    Path manifest(String name, Table table) throws IOException {
        Path file = dir.resolve("lists").resolve(name + format().extensions().get(0));
        Files.createDirectories(file.getParent());
        write(file, table);
        return file;
    }

    @Test
    void infersTypesFromTheValuesWithNullsAndMixedNumbersAsDouble() throws IOException {
        Path manifest = manifest("speech", speech());
        ManifestSource source = ManifestSource.open(manifest);

        assertThat(source.format()).isEqualTo(format());
        assertThat(source.schema().columns()).containsExactly(new Column("filename", ColumnType.STRING),
                new Column("speaker", ColumnType.BIGINT), new Column("duration", ColumnType.DOUBLE),
                new Column("train", ColumnType.BOOLEAN), new Column("transcript", ColumnType.STRING),
                new Column("note", ColumnType.STRING), new Column("filesize_bytes", ColumnType.BIGINT));
        assertThat(source.schema().payloadFields()).containsExactly(Sample.DATA);
        assertThat(rows(source)).extracting(MetadataRow::values).containsExactly(
                Arrays.asList("clips/a.wav", 7L, 1.0, true, "hello, \"world\"", null, 100L),
                Arrays.asList("clips/b.wav", null, 2.5, false, "two\nlines", null, 250L),
                Arrays.asList("clips/c.wav", -3L, null, null, null, null, 7L));
    }

    @Test
    void samplesAreLazilyReadFilesWithTheMetadataOfTheirRows() throws IOException {
        ManifestSource source = ManifestSource.open(manifest("speech", speech()));
        List<Sample> samples;
        try (Stream<Sample> stream = source.samples()) {
            samples = stream.toList();
        }
        assertThat(samples).extracting(Sample::metadata).containsExactlyElementsOf(rows(source));
        assertThat(samples).allSatisfy(s -> assertThat(s.field(Sample.DATA).inMemory()).isFalse());
        assertThat(samples).extracting(Sample::data).containsExactly(ByteBuffer.wrap(clipA), ByteBuffer.wrap(clipB),
                ByteBuffer.wrap(clipC));
        try (Stream<Path> files = source.files()) {
            assertThat(files).containsExactly(dir.resolve("lists/../clips/a.wav").toAbsolutePath(),
                    dir.resolve("lists/../clips/b.wav").toAbsolutePath(), dir.resolve("clips/c.wav").toAbsolutePath());
        }
    }

    @Test
    void metadataReadsNoPayloadByteAndSamplesLeaveTheReadingToTheirUser() throws IOException {
        CountingFiles counting = new CountingFiles();
        ManifestSource source = ManifestSource.open(manifest("speech", speech()), ManifestOptions.defaults(),
                RowCompletion.NONE, counting);

        assertThat(rows(source)).hasSize(3);
        assertThat(counting.sized).as("files sized from their attributes").hasValue(3);
        assertThat(counting.opened).as("files opened by metadata()").hasValue(0);

        List<Sample> samples;
        try (Stream<Sample> stream = source.samples()) {
            samples = stream.toList();
        }
        assertThat(counting.opened).hasValue(3);
        assertThat(counting.reads).as("bytes read by samples() itself").hasValue(0);
        assertThat(samples.get(1).data()).isEqualTo(ByteBuffer.wrap(clipB));
        assertThat(counting.reads).hasValue(1);
    }

    @Test
    void aDeclaredSchemaTypesTheColumnsAndKeepsTheDeclaredPathColumn() throws IOException {
        Path manifest = manifest("speech", speech());
        ManifestSource source = ManifestSource.open(manifest, ManifestOptions.defaults()
                .withSchema("speaker:double, duration:double, train:boolean, transcript:string, note:string, "
                        + "path:string"));
        assertThat(source.schema().columns()).extracting(Column::toString).containsExactly("filename string",
                "speaker double", "duration double", "train boolean", "transcript string", "note string",
                "path string", "filesize_bytes bigint");
        assertThat(rows(source).get(0).values()).containsExactly("clips/a.wav", 7.0, 1.0, true, "hello, \"world\"",
                null, "../clips/a.wav", 100L);
    }

    @Test
    void anUndeclaredColumnFailsUnlessIgnored() throws IOException {
        Path manifest = manifest("speech", speech());
        ManifestOptions declared = ManifestOptions.defaults().withSchema("speaker:bigint,duration:double,"
                + "train:boolean,transcript:string");
        String message = ": column 'note' is not in the declared schema (filename, speaker, duration, train, "
                + "transcript, filesize_bytes); declare it, or leave such columns out with UndeclaredColumns.IGNORE";
        if (format() == ManifestFormat.JSON_LINES) {
            ManifestSource source = ManifestSource.open(manifest, declared);
            try (Stream<MetadataRow> rows = source.metadata()) {
                assertThatThrownBy(rows::count).isInstanceOf(IngestException.class)
                        .hasMessage(origin(manifest, 0) + message);
            }
        } else {
            assertThatThrownBy(() -> ManifestSource.open(manifest, declared)).isInstanceOf(IngestException.class)
                    .hasMessage(columnsOrigin(manifest) + message);
        }
        ManifestSource ignoring = ManifestSource.open(manifest, declared.withUndeclaredColumns(
                ManifestOptions.UndeclaredColumns.IGNORE));
        assertThat(rows(ignoring).get(2).values()).containsExactly("clips/c.wav", -3L, null, null, null, 7L);
    }

    @Test
    void aDeclaredColumnTheManifestLacksFailsOnOpenOrIsNullForJsonLines() throws IOException {
        Path manifest = manifest("speech", speech());
        ManifestOptions options = ManifestOptions.defaults().withSchema("speaker:bigint,age:bigint")
                .withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE);
        if (format() == ManifestFormat.JSON_LINES) {
            assertThat(rows(ManifestSource.open(manifest, options))).extracting(r -> r.get("age"))
                    .containsOnlyNulls();
        } else {
            assertThatThrownBy(() -> ManifestSource.open(manifest, options)).isInstanceOf(IngestException.class)
                    .hasMessage(columnsOrigin(manifest) + ": " + (format() == ManifestFormat.CSV ? "the header"
                            : "the manifest") + " has no 'age' column, which the schema declares (found: path,speaker,"
                            + "duration,train,transcript,note)");
        }
    }

    @Test
    void severalPathColumnsMakeSeveralPayloadFieldsAndAnEmptyOneLeavesItsFieldOut() throws IOException {
        Table table = Table.of(List.of(new Col("audio_path", ColumnType.STRING), new Col("text_path",
                        ColumnType.STRING), new Col("speaker", ColumnType.BIGINT)),
                new Object[] {"../clips/a.wav", "../texts/a.txt", 1L},
                new Object[] {"../clips/b.wav", null, 2L});
        ManifestSource source = ManifestSource.open(manifest("pairs", table), ManifestOptions.defaults()
                .withPayloadColumns("wav=audio_path,txt=text_path"));

        assertThat(source.schema().payloadFields()).containsExactly("wav", "txt");
        assertThat(source.schema().columns()).extracting(Column::name)
                .containsExactly("filename", "speaker", "filesize_bytes");
        List<Sample> samples;
        try (Stream<Sample> stream = source.samples()) {
            samples = stream.toList();
        }
        assertThat(samples.get(0).fields().keySet()).containsExactly("wav", "txt");
        assertThat(samples.get(0).field("txt").readAll()).isEqualTo(ByteBuffer.wrap(textA));
        assertThat(samples.get(0).metadata().getLong("filesize_bytes")).isEqualTo(clipA.length + textA.length);
        assertThat(samples.get(0).filename()).isEqualTo("clips/a.wav");
        assertThat(samples.get(1).fields().keySet()).containsExactly("wav");
        assertThat(samples.get(1).metadata().getLong("filesize_bytes")).isEqualTo(clipB.length);
        assertThat(rows(source)).extracting(MetadataRow::values)
                .containsExactlyElementsOf(samples.stream().map(s -> s.metadata().values()).toList());

        Table none = Table.of(table.columns(), new Object[] {null, null, 3L});
        Path empty = manifest("none", none);
        ManifestSource noFiles = ManifestSource.open(empty, ManifestOptions.defaults()
                .withPayloadColumns("wav=audio_path,txt=text_path").withSchema("speaker:bigint"));
        try (Stream<MetadataRow> rows = noFiles.metadata()) {
            assertThatThrownBy(rows::count).hasMessage(origin(empty, 0) + ": columns audio_path, text_path are all "
                    + "empty; every row needs the path of at least one file");
        }
    }

    @Test
    void aMissingFileFailsNamingTheRowAndColumn() throws IOException {
        Table table = Table.of(List.of(new Col("path", ColumnType.STRING)), new Object[] {"../clips/a.wav"},
                new Object[] {"../clips/gone.wav"});
        Path manifest = manifest("missing", table);
        ManifestSource source = ManifestSource.open(manifest);
        String message = origin(manifest, 1) + ", column path: file " + dir.resolve("lists/../clips/gone.wav")
                .toAbsolutePath() + " does not exist";
        try (Stream<MetadataRow> rows = source.metadata()) {
            assertThatThrownBy(rows::count).isInstanceOf(IngestException.class).hasMessage(message);
        }
        try (Stream<Sample> samples = source.samples()) {
            assertThatThrownBy(samples::count).isInstanceOf(IngestException.class).hasMessage(message);
        }
    }

    @Test
    void anEmptyPathFailsNamingTheRow() throws IOException {
        Table table = Table.of(List.of(new Col("path", ColumnType.STRING), new Col("speaker", ColumnType.BIGINT)),
                new Object[] {"../clips/a.wav", 1L}, new Object[] {null, 2L});
        Path manifest = manifest("nopath", table);
        try (Stream<MetadataRow> rows = ManifestSource.open(manifest).metadata()) {
            assertThatThrownBy(rows::count).isInstanceOf(IngestException.class)
                    .hasMessage(origin(manifest, 1) + ", column path: empty; every row needs the path of its file");
        }
    }

    @Test
    void aRepeatedSampleNameFailsNamingBothRows() throws IOException {
        Table table = Table.of(List.of(new Col("path", ColumnType.STRING), new Col("filename", ColumnType.STRING)),
                new Object[] {"../clips/a.wav", "same.wav"}, new Object[] {"../clips/c.wav", null},
                new Object[] {"../clips/b.wav", "same.wav"});
        Path manifest = manifest("repeat", table);
        ManifestSource source = ManifestSource.open(manifest);
        for (boolean samples : List.of(true, false)) {
            try (Stream<?> stream = samples ? source.samples() : source.metadata()) {
                assertThatThrownBy(stream::count).isInstanceOf(IngestException.class).hasMessage(origin(manifest, 2)
                        + ": sample name 'same.wav' (" + dir.resolve("lists/../clips/b.wav").toAbsolutePath()
                        + ") is already the name of " + origin(manifest, 0) + " ("
                        + dir.resolve("lists/../clips/a.wav").toAbsolutePath() + "); the samples of a dataset need "
                        + "distinct names, as the layouts store and find them by name: give the rows distinct "
                        + "values in a 'filename' column");
            }
        }
    }

    @Test
    void aDeclaredFilesizeIsTrustedByMetadataAndCheckedBySamples() throws IOException {
        Table table = Table.of(List.of(new Col("path", ColumnType.STRING), new Col("filesize_bytes",
                ColumnType.BIGINT)), new Object[] {"../clips/a.wav", 5L});
        Path manifest = manifest("sized", table);
        ManifestSource source = ManifestSource.open(manifest);
        assertThat(rows(source).get(0).getLong("filesize_bytes")).isEqualTo(5);
        try (Stream<Sample> samples = source.samples()) {
            assertThatThrownBy(samples::count).hasMessage(origin(manifest, 0) + ": declares filesize_bytes 5 but "
                    + dir.resolve("lists/../clips/a.wav").toAbsolutePath() + " has 100 bytes");
        }
    }

    @Test
    void pathColumnsAreKeptWhenAskedAndFilenamesCanBeFileNamesOnly() throws IOException {
        ManifestSource source = ManifestSource.open(manifest("speech", speech()), ManifestOptions.defaults()
                .withPathColumnsKept(true).withFilenames(IngestOptions.FilenameStyle.FILE_NAME));
        assertThat(source.schema().find("path")).contains(new Column("path", ColumnType.STRING));
        assertThat(rows(source)).extracting(r -> r.getString("filename") + " " + r.getString("path"))
                .containsExactly("a.wav ../clips/a.wav", "b.wav ../clips/b.wav",
                        "c.wav " + dir.resolve("clips/c.wav").toAbsolutePath());
    }

    /** Where errors about the manifest's columns point: its header (CSV) or the file (Parquet). */
    String columnsOrigin(Path manifest) {
        return format() == ManifestFormat.CSV ? manifest + " line 1" : manifest.toString();
    }

    static List<MetadataRow> rows(ManifestSource source) {
        try (Stream<MetadataRow> rows = source.metadata()) {
            return rows.toList();
        }
    }

    void write(String relative, byte[] bytes) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }

    static byte[] bytes(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + seed);
        }
        return bytes;
    }

    /** Local files, counting what is sized, opened and read. */
    static final class CountingFiles implements PayloadFiles {
        final AtomicInteger sized = new AtomicInteger();
        final AtomicInteger opened = new AtomicInteger();
        final AtomicInteger reads = new AtomicInteger();

        @Override
        public long size(Path file) throws IOException {
            sized.incrementAndGet();
            return LOCAL.size(file);
        }

        @Override
        public Blob open(Path file) throws IOException {
            opened.incrementAndGet();
            Blob blob = LOCAL.open(file);
            return new Blob() {
                @Override
                public long size() {
                    return blob.size();
                }

                @Override
                public ByteBuffer read(long offset, int length) {
                    reads.incrementAndGet();
                    return blob.read(offset, length);
                }
            };
        }
    }

    /** The schema a Parquet writer writes the table with. */
    static MetadataSchema schemaOf(Table table) {
        return new MetadataSchema(table.columns().stream().map(c -> new Column(c.name(), c.type())).toList());
    }
}
