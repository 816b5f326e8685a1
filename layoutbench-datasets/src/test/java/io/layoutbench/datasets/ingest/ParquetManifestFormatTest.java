package io.layoutbench.datasets.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.ParquetTableWriter;
import io.layoutbench.parquet.ParquetWriteOptions;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

/**
 * {@link ManifestSource} over Parquet tables written by {@link ParquetTableWriter}: the contract, and what only a
 * typed, row-grouped file does.
 */
class ParquetManifestFormatTest extends ManifestSourceContractTest {

    @Override
    ManifestFormat format() {
        return ManifestFormat.PARQUET;
    }

    @Override
    void write(Path file, Table table) {
        write(file, table, ParquetWriteOptions.defaults());
    }

    private static void write(Path file, Table table, ParquetWriteOptions options) {
        MetadataSchema schema = schemaOf(table);
        try (ParquetTableWriter writer = ParquetTableWriter.create(ParquetTableSchema.of(schema), file, options)) {
            for (List<Object> row : table.rows()) {
                writer.write(new MetadataRow(schema, row));
            }
        }
    }

    @Override
    String origin(Path manifest, int row) {
        return manifest + " row " + row;
    }

    @Test
    void readsRowGroupAfterRowGroupAndNamesRowsAcrossThem() throws IOException {
        List<Object[]> rows = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            rows.add(new Object[] {i == 2500 ? "../clips/gone.wav" : "../clips/" + "abc".charAt(i % 3) + ".wav",
                    "sample-" + i, (long) i, i * 0.5});
        }
        Table table = Table.of(List.of(new Col("path", ColumnType.STRING), new Col("filename", ColumnType.STRING),
                new Col("n", ColumnType.BIGINT), new Col("half", ColumnType.DOUBLE)), rows.toArray(Object[][]::new));
        Path manifest = dir.resolve("lists/many.parquet");
        Files.createDirectories(manifest.getParent());
        write(manifest, table, ParquetWriteOptions.defaults().withRowGroupSize(16 << 10).withPageSize(4 << 10));
        try (FileBackend backend = new FileBackend(manifest.getParent())) {
            assertThat(ParquetObject.open(backend, "many.parquet").footer().rowGroups()).hasSizeGreaterThan(2);
        }

        ManifestSource source = ManifestSource.open(manifest);
        try (Stream<MetadataRow> metadata = source.metadata()) {
            List<MetadataRow> read = metadata.limit(2500).toList();
            assertThat(read).extracting(r -> r.getLong("n")).containsExactlyElementsOf(
                    LongStream.range(0, 2500).boxed().toList());
            assertThat(read.get(1234).getDouble("half")).isEqualTo(617.0);
            assertThat(read.get(1234).getString("filename")).isEqualTo("sample-1234");
        }
        try (Stream<MetadataRow> metadata = source.metadata()) {
            assertThatThrownBy(metadata::count).hasMessage(manifest + " row 2500, column path: file "
                    + dir.resolve("lists/../clips/gone.wav").toAbsolutePath() + " does not exist");
        }
    }

    @Test
    void aColumnOfNoManifestTypeIsRefusedNamingItUnlessIgnored() throws IOException {
        MetadataSchema metadata = new MetadataSchema(List.of(new Column("path", ColumnType.STRING)));
        Path manifest = dir.resolve("lists/blob.parquet");
        Files.createDirectories(manifest.getParent());
        try (ParquetTableWriter writer = ParquetTableWriter.create(ParquetTableSchema.builder(metadata)
                .blobColumn("image").build(), manifest, ParquetWriteOptions.defaults())) {
            writer.write(new MetadataRow(metadata, List.of("../clips/a.wav")), List.of(),
                    ByteBuffer.wrap("not text".getBytes(StandardCharsets.UTF_8)));
        }
        assertThatThrownBy(() -> ManifestSource.open(manifest)).isInstanceOf(IngestException.class)
                .hasMessage(manifest + ": column 'image' is BYTE_ARRAY without a UTF8 (string) annotation; a manifest "
                        + "column is INT32, INT64, FLOAT, DOUBLE, BOOLEAN or UTF8 BYTE_ARRAY; to leave it out, declare "
                        + "a schema and ignore undeclared columns");
        assertThatThrownBy(() -> ManifestSource.open(manifest, ManifestOptions.defaults().withSchema("image:string")))
                .hasMessage(manifest + ": column 'image' is BYTE_ARRAY without a UTF8 (string) annotation; a manifest "
                        + "column is INT32, INT64, FLOAT, DOUBLE, BOOLEAN or UTF8 BYTE_ARRAY");
        assertThatThrownBy(() -> ManifestSource.open(manifest, ManifestOptions.defaults().withPathColumn("image")))
                .hasMessage(manifest + ": path column 'image' is BYTE_ARRAY without a UTF8 (string) annotation; a "
                        + "manifest column is INT32, INT64, FLOAT, DOUBLE, BOOLEAN or UTF8 BYTE_ARRAY");
        ManifestSource ignoring = ManifestSource.open(manifest, ManifestOptions.defaults()
                .withSchema("filename:string").withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE));
        assertThat(rows(ignoring)).extracting(MetadataRow::values)
                .containsExactly(Arrays.asList("clips/a.wav", 100L));
    }

    @Test
    void aTypedColumnMustFitItsDeclaredType() throws IOException {
        Path manifest = manifest("speech", speech());
        assertThatThrownBy(() -> ManifestSource.open(manifest, ManifestOptions.defaults()
                .withSchema("duration:bigint").withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE)))
                .isInstanceOf(IngestException.class)
                .hasMessage(manifest + ": column 'duration' is DOUBLE, which the declared column duration bigint "
                        + "cannot hold");
        assertThatThrownBy(() -> ManifestSource.open(manifest, ManifestOptions.defaults().withPathColumn("speaker")))
                .hasMessage(manifest + ": path column 'speaker' is BIGINT; a path column holds text");
        ManifestSource asText = ManifestSource.open(manifest, ManifestOptions.defaults()
                .withSchema("speaker:string,train:string")
                .withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE));
        assertThat(rows(asText).get(0).values()).containsExactly("clips/a.wav", "7", "true", 100L);
    }

    @Test
    void aFileThatIsNotParquetFailsOnOpen() throws IOException {
        Path manifest = dir.resolve("lists/fake.parquet");
        Files.createDirectories(manifest.getParent());
        Files.writeString(manifest, "path\n../clips/a.wav\n");
        assertThatThrownBy(() -> ManifestSource.open(manifest)).isInstanceOf(IngestException.class)
                .hasMessageStartingWith("Cannot read manifest " + manifest + ": ");
        assertThatThrownBy(() -> ManifestSource.open(dir.resolve("lists/none.parquet")))
                .hasMessageStartingWith("Cannot read manifest " + dir.resolve("lists/none.parquet") + ": ")
                .hasMessageContaining("NoSuchFileException");
    }
}
