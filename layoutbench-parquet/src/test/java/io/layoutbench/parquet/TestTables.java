package io.layoutbench.parquet;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import org.apache.parquet.conf.PlainParquetConfiguration;
import org.apache.parquet.hadoop.ParquetFileWriter;
import org.apache.parquet.hadoop.example.ExampleParquetWriter;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.MessageType;

/**
 * Deterministic test tables: every value of row {@code r} is a function of {@code r}, so a reader's output can be
 * checked row by row without keeping the input, and a blob from the wrong row is caught.
 */
final class TestTables {

    /**
     * A writer of parquet-java's example {@link org.apache.parquet.example.data.Group} rows, uncompressed, without
     * Hadoop: for schemas the table writer does not write (nested groups, DECIMALs in bytes).
     */
    static ExampleParquetWriter.Builder groupWriter(Path file, MessageType schema) {
        return ExampleParquetWriter.builder(StreamOutputFile.of(file))
                .withConf(new PlainParquetConfiguration()).withType(schema)
                .withCodecFactory(UncompressedCodecFactory.INSTANCE)
                .withCompressionCodec(CompressionCodecName.UNCOMPRESSED)
                .withWriteMode(ParquetFileWriter.Mode.OVERWRITE);
    }

    static final String[] LABELS = {"streetcar", "tench", "goldfish", "great white shark", "tiger shark",
        "hammerhead", "electric ray", "stingray", "cock", "hen", "ostrich", "brambling"};

    private TestTables() {
    }

    static String filename(int row) {
        return String.format("n%08d_%d.JPEG", row * 7 % 100_000_000, row);
    }

    static String label(int row) {
        // Runs of equal labels, as in a class-ordered file, with some scatter.
        return LABELS[(row / 37 + row % 5 / 4) % LABELS.length];
    }

    static long width(int row) {
        return 100 + row * 31L % 900;
    }

    static long height(int row) {
        return 100 + row * 17L % 500;
    }

    /** The metadata row {@code row} of the paper's schema; every 50th row has a null height. */
    static MetadataRow metadata(int row) {
        return MetadataRow.of(MetadataSchema.imageNet(), row % 50 == 49
                ? Map.of("filename", filename(row), "label", label(row), "filesize_bytes", (long) blobSize(row),
                        "width", width(row))
                : Map.of("filename", filename(row), "label", label(row), "filesize_bytes", (long) blobSize(row),
                        "width", width(row), "height", height(row)));
    }

    static int blobSize(int row) {
        return 200 + (int) (row * 7919L % 3000);
    }

    /** The blob of row {@code row}: its size and every byte depend on the row. */
    static byte[] blob(int row) {
        byte[] bytes = new byte[blobSize(row)];
        long state = row * 0x9E3779B97F4A7C15L + 0x632BE59BD9B4E019L;
        for (int i = 0; i < bytes.length; i++) {
            state ^= state << 13;
            state ^= state >>> 7;
            state ^= state << 17;
            bytes[i] = (byte) state;
        }
        return bytes;
    }

    static byte[] bytes(ByteBuffer buffer) {
        byte[] copy = new byte[buffer.remaining()];
        buffer.duplicate().get(copy);
        return copy;
    }

    /** The L3 schema: the paper's metadata plus {@code image_bytes}. */
    static ParquetTableSchema l3Schema() {
        return ParquetTableSchema.builder(MetadataSchema.imageNet()).blobColumn("image_bytes").build();
    }

    /** The L1 metadata table schema: the paper's names, {@code label} written as {@code human_label}. */
    static ParquetTableSchema l1Schema() {
        return ParquetTableSchema.builder(MetadataSchema.imageNet())
                .rename(MetadataSchema.LABEL, MetadataSchema.HUMAN_LABEL).build();
    }

    /** Writes {@code rows} rows of the L3 table to a temp file in {@code dir}. */
    static Path writeL3(Path dir, int rows, ParquetWriteOptions options) {
        Path file = dir.resolve("l3-" + rows + "-" + options.rowGroupSize() + "-" + options.pageSize() + ".parquet");
        try (ParquetTableWriter writer = ParquetTableWriter.create(l3Schema(), file, options)) {
            for (int row = 0; row < rows; row++) {
                writer.write(metadata(row), List.of(), ByteBuffer.wrap(blob(row)));
            }
        }
        return file;
    }

    /** Writes {@code rows} rows of the L1 metadata table to a temp file in {@code dir}. */
    static Path writeL1(Path dir, int rows, ParquetWriteOptions options) {
        Path file = dir.resolve("l1-" + rows + "-" + options.rowGroupSize() + ".parquet");
        try (ParquetTableWriter writer = ParquetTableWriter.create(l1Schema(), file, options)) {
            for (int row = 0; row < rows; row++) {
                writer.write(metadata(row));
            }
        }
        return file;
    }

    static void upload(ObjectBackend backend, String key, Path file) {
        backend.put(key, file);
    }

    static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code count} distinct sorted random rows in {@code [0, bound)}, seeded. */
    static int[] sparseRows(long seed, int bound, int count) {
        java.util.Random random = new java.util.Random(seed);
        return random.ints(0, bound).distinct().limit(count).sorted().toArray();
    }

    /** The file-level rows of a row group's in-group rows. */
    static List<Integer> fileRows(RowGroupInfo group, int[] rows) {
        List<Integer> fileRows = new ArrayList<>();
        Arrays.stream(rows).forEach(r -> fileRows.add((int) (group.firstRow() + r)));
        return fileRows;
    }
}
