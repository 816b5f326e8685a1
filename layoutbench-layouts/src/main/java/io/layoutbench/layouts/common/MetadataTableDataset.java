package io.layoutbench.layouts.common;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.SupportsMetadataScan;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.ParquetTableSchema;

/**
 * A dataset whose client holds a whole metadata table (L1 and L2): loaded through the first query's backend, so
 * the paper's cold run pays for it and warm runs do not, then cached.
 *
 * <pre>{@code
 * MetadataTable table = metadata(backend);   // loads on first use
 * }</pre>
 */
public abstract class MetadataTableDataset extends ManifestDataset implements SupportsMetadataScan {

    private final ManifestObject metadataObject;
    private final ParquetTableSchema tableSchema;
    private volatile MetadataTable cached;

    protected MetadataTableDataset(String layout, int formatVersion, ObjectBackend backend, String prefix,
            java.util.function.Function<MetadataSchema, ParquetTableSchema> tableSchema) {
        super(layout, formatVersion, backend, prefix);
        String key = manifest.properties().get("metadata.key");
        if (key == null) {
            throw new CorruptDataException("Manifest of the " + layout + " dataset at '" + prefix
                    + "' names no metadata table (property metadata.key)");
        }
        this.metadataObject = manifest.object(key).orElseThrow(() -> new CorruptDataException("Manifest of the "
                + layout + " dataset at '" + prefix
                        + "' does not list its metadata table " + key));
        this.tableSchema = tableSchema.apply(schema());
    }

    /** The metadata table, loaded through {@code backend} on first use. */
    protected final MetadataTable metadata(ObjectBackend backend) {
        MetadataTable table = cached;
        if (table == null) {
            synchronized (this) {
                table = cached;
                if (table == null) {
                    table = MetadataTable.load(backend, metadataObject, tableSchema);
                    if (table.rowCount() != manifest.sampleCount()) {
                        throw new CorruptDataException("Metadata table " + metadataObject.key() + " has "
                                + table.rowCount() + " rows but the manifest records " + manifest.sampleCount()
                                + " samples");
                    }
                    cached = table;
                }
            }
        }
        return table;
    }

    /** The metadata table's rows, and the sizes its size column holds: one read of the table, no sample. */
    @Override
    public DatasetMetadata scanMetadata(String name) {
        MetadataTable table = metadata(backend);
        long[][] fields = PayloadColumns.of(schema()).sizes(table);
        long[] sizes = fields[0];
        if (fields.length > 1) {
            sizes = new long[table.rowCount()];
            for (long[] field : fields) {
                for (int row = 0; row < sizes.length; row++) {
                    sizes[row] += Math.max(0, field[row]);
                }
            }
        }
        return DatasetMetadata.of(name, table.columns(), sizes);
    }

    @Override
    public void close() {
        cached = null;
    }
}
