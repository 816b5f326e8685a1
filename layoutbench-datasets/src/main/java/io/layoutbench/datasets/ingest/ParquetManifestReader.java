package io.layoutbench.datasets.ingest;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.parquet.ColumnChunkInfo;
import io.layoutbench.parquet.CommonDecompressor;
import io.layoutbench.parquet.MetadataColumns;
import io.layoutbench.parquet.ParquetColumn;
import io.layoutbench.parquet.ParquetFooter;
import io.layoutbench.parquet.ParquetObject;
import io.layoutbench.parquet.RowGroupInfo;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;

import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.schema.LogicalTypeAnnotation;

/**
 * A pass over a Parquet manifest with the project's own reader ({@link ParquetObject} over the {@code file:}
 * backend; no Hadoop), one row group at a time, the next one read while the rows of the current one are handed out.
 * INT32 and INT64 read as BIGINT, FLOAT and DOUBLE as DOUBLE, BOOLEAN as BOOLEAN, UTF-8 BYTE_ARRAY as STRING; a
 * column of another type (raw BYTE_ARRAY, INT96, FIXED_LEN_BYTE_ARRAY, DECIMAL) is refused if it is read. Nested
 * and repeated columns are refused by the footer reader. Pages must be uncompressed, as this module bundles no
 * codec: a compressed column that is read is refused on open, naming it. Rows are numbered from 0, as Parquet
 * tools number them.
 */
final class ParquetManifestReader implements ManifestReader {

    private final Path manifest;
    private final FileBackend backend;
    private final ParquetObject table;
    private final List<SourceColumn> columns;
    /** The columns read, as the file names them; null for a look at the columns only. */
    private final List<String> read;
    private int nextGroup;
    private CompletableFuture<MetadataColumns> ahead;
    private RowGroupInfo group;
    private MetadataColumns values;
    private int row;

    private ParquetManifestReader(Path manifest, FileBackend backend, ParquetObject table, List<String> read) {
        this.manifest = manifest;
        this.backend = backend;
        this.table = table;
        this.read = read;
        List<SourceColumn> described = new ArrayList<>();
        for (ParquetColumn column : table.footer().columns()) {
            described.add(new SourceColumn(column.name(), column.type(), refusal(table.footer(), column)));
        }
        this.columns = List.copyOf(described);
    }

    static ParquetManifestReader open(Path manifest, Set<String> wanted) {
        Path real;
        try {
            real = manifest.toRealPath();
        } catch (IOException e) {
            throw new IngestException("Cannot read manifest " + manifest + ": " + e, e);
        }
        // The backend's root is the manifest's own directory: a key never climbs out of it, and links are resolved.
        FileBackend backend = new FileBackend(real.getParent(), FileBackend.Options.defaults().withIoThreads(1),
                RequestMetrics.NONE);
        try {
            ParquetObject table = ParquetObject.open(backend, real.getFileName().toString());
            List<String> read = null;
            if (wanted != null) {
                read = new ArrayList<>();
                for (ParquetColumn column : table.footer().columns()) {
                    if (wanted.contains(column.name())) {
                        read.add(column.name());
                    }
                }
            }
            ParquetManifestReader reader = new ParquetManifestReader(manifest, backend, table, read);
            reader.checkReadable();
            return reader;
        } catch (IngestException e) {
            backend.close();
            throw e;
        } catch (LayoutBenchException | IllegalArgumentException e) {
            backend.close();
            throw new IngestException("Cannot read manifest " + manifest + ": " + e.getMessage(), e);
        }
    }

    @Override
    public Optional<List<SourceColumn>> columns() {
        return Optional.of(columns);
    }

    @Override
    public String columnsOrigin() {
        return manifest.toString();
    }

    @Override
    public boolean typedText() {
        return true;
    }

    @Override
    public Record next() {
        if (read == null) {
            throw new IllegalStateException("This pass over " + manifest + " reads no column");
        }
        while (values == null || row >= values.rowCount()) {
            if (nextGroup >= table.footer().rowGroups().size()) {
                return null;
            }
            group = table.footer().rowGroup(nextGroup);
            values = await(ahead != null ? ahead : readGroup(nextGroup), nextGroup);
            nextGroup++;
            ahead = nextGroup < table.footer().rowGroups().size() ? readGroup(nextGroup) : null;
            row = 0;
        }
        Map<String, Object> cells = new LinkedHashMap<>();
        for (int c = 0; c < read.size(); c++) {
            ColumnVector column = values.columns().get(c);
            cells.put(read.get(c), column.get(row));
        }
        String origin = manifest + " row " + (group.firstRow() + row);
        row++;
        return new Record(origin, cells);
    }

    @Override
    public void close() {
        if (ahead != null) {
            ahead.cancel(false);
        }
        backend.close();
    }

    private CompletableFuture<MetadataColumns> readGroup(int index) {
        return table.readColumnsAsync(index, read, CommonDecompressor.INSTANCE);
    }

    private MetadataColumns await(CompletableFuture<MetadataColumns> future, int index) {
        try {
            return ObjectBackend.await(future);
        } catch (LayoutBenchException | IllegalArgumentException e) {
            throw new IngestException("Cannot read manifest " + manifest + " (row group " + index + "): "
                    + e.getMessage(), e);
        }
    }

    /** The codecs {@link CommonDecompressor} reads. */
    private static final java.util.Set<CompressionCodecName> READABLE_CODECS = java.util.EnumSet.of(
            CompressionCodecName.UNCOMPRESSED, CompressionCodecName.SNAPPY, CompressionCodecName.GZIP,
            CompressionCodecName.ZSTD);

    /** Refuses, before any row is read, a column read that is of no metadata type or compressed. */
    private void checkReadable() {
        if (read == null) {
            return;
        }
        for (String name : read) {
            SourceColumn column = columns.stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow();
            if (column.refusal().isPresent()) {
                throw new IngestException(manifest + ": column '" + name + "' " + column.refusal().get());
            }
            for (RowGroupInfo rowGroup : table.footer().rowGroups()) {
                ColumnChunkInfo chunk = rowGroup.column(name);
                if (!READABLE_CODECS.contains(chunk.codec())) {
                    throw new IngestException(manifest + ": column '" + name + "' is compressed with "
                            + chunk.codec() + " (row group " + rowGroup.index() + "); a Parquet manifest is read "
                            + "uncompressed or compressed with SNAPPY, ZSTD or GZIP (pyarrow: compression='snappy')");
                }
            }
        }
    }

    private static Optional<String> refusal(ParquetFooter footer, ParquetColumn column) {
        if (column.type().isEmpty()) {
            String what = switch (column.physicalType()) {
                case BINARY -> "BYTE_ARRAY without a UTF8 (string) annotation";
                default -> column.physicalType().name();
            };
            return Optional.of("is " + what + "; a manifest column is INT32, INT64, FLOAT, DOUBLE, BOOLEAN or UTF8 "
                    + "BYTE_ARRAY");
        }
        LogicalTypeAnnotation annotation = footer.messageType().getType(column.name()).getLogicalTypeAnnotation();
        if (annotation instanceof LogicalTypeAnnotation.DecimalLogicalTypeAnnotation decimal) {
            return Optional.of("is a DECIMAL(" + decimal.getPrecision() + "," + decimal.getScale() + ") whose "
                    + "integers are scaled; a manifest column is INT32, INT64, FLOAT, DOUBLE, BOOLEAN or UTF8 "
                    + "BYTE_ARRAY (cast it to DOUBLE)");
        }
        return Optional.empty();
    }
}
