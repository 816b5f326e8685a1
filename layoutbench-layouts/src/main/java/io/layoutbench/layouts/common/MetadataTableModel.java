package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.ParquetWriteOptions;
import io.layoutbench.parquet.model.ColumnModel;
import io.layoutbench.parquet.model.ParquetFileModel;
import io.layoutbench.parquet.model.ParquetFooterModel;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A metadata table of L1 or L2 (a Parquet file of the metadata columns, the checksum and the layout's own columns,
 * written with the default 128 MB row groups and 1 MiB pages), modelled from the values by parquet-java's size model,
 * and the reads a cold client makes to load it: the footer (the file's last 64 KiB), then every column chunk not in
 * that tail, merged per row group, as {@link MetadataTable#load} reads it.
 *
 * <pre>{@code
 * MetadataTableModel table = MetadataTableModel.of(key, data, L2Writer.tableSchema(schema),
 *         Map.of(MetadataParquet.CRC32C, ColumnModel.distinctLongs(), "data_offset", ColumnModel.longs(offsets)));
 * List<PlannedRequest> coldLoad = table.loadRequests();
 * }</pre>
 */
public final class MetadataTableModel {

    private final ParquetFooterModel footer;
    private final List<PlannedRequest> loadRequests;

    private MetadataTableModel(String key, int fromRow, int toRow, List<ColumnModel> columns, int nameBytes) {
        ParquetFileModel file = new ParquetFileModel(columns, nameBytes, null,
                ParquetWriteOptions.DEFAULT_ROW_GROUP_SIZE, ParquetWriteOptions.DEFAULT_PAGE_SIZE, null);
        for (int row = fromRow; row < toRow; row++) {
            file.write(row);
        }
        ParquetFileModel.Written written = file.close();
        this.footer = written.footer();
        List<PlannedRequest> requests = new ArrayList<>(footer.footerRequests(key));
        ByteRange tail = footer.tail();
        for (ParquetFileModel.RowGroup group : written.rowGroups()) {
            List<ByteRange> chunks = new ArrayList<>();
            long offset = group.offset();
            for (long bytes : group.chunkBytes()) {
                chunks.add(ByteRange.of(offset, bytes));
                offset += bytes;
            }
            requests.addAll(ParquetFooterModel.chunkRequests(key, chunks, tail));
        }
        this.loadRequests = List.copyOf(requests);
    }

    /**
     * The table {@code key} of {@code data} written with {@code schema}: its metadata columns modelled from
     * {@code data}'s values, its extra columns from {@code extraColumns} by name.
     *
     * @throws IllegalArgumentException naming an extra column of {@code schema} that has no model
     */
    public static MetadataTableModel of(String key, DatasetMetadata data, ParquetTableSchema schema,
            Map<String, ColumnModel> extraColumns) {
        return of(key, data, schema, extraColumns, 0, data.sampleCount());
    }

    /**
     * The table {@code key} of the rows {@code [fromRow, toRow)} of {@code data} (an L3 part's metadata file), as
     * {@link #of(String, DatasetMetadata, ParquetTableSchema, Map)}.
     */
    public static MetadataTableModel of(String key, DatasetMetadata data, ParquetTableSchema schema,
            Map<String, ColumnModel> extraColumns, int fromRow, int toRow) {
        requireNonNull(key, "key is null");
        java.util.Objects.checkFromToIndex(fromRow, toRow, data.sampleCount());
        List<ColumnModel> columns = new ArrayList<>();
        for (int c = 0; c < schema.metadata().size(); c++) {
            columns.add(ColumnModel.of(data.metadata(), c));
        }
        for (io.layoutbench.api.dataset.Column extra : schema.extraColumns()) {
            ColumnModel model = extraColumns.get(extra.name());
            if (model == null) {
                throw new IllegalArgumentException("No model of the metadata table's column '" + extra.name()
                        + "'; models were given for " + extraColumns.keySet());
            }
            columns.add(model);
        }
        int nameBytes = 0;
        for (String name : schema.physicalNames()) {
            nameBytes += name.getBytes(StandardCharsets.UTF_8).length;
        }
        return new MetadataTableModel(key, fromRow, toRow, columns, nameBytes);
    }

    /** The reads loading the table takes, in order. */
    public List<PlannedRequest> loadRequests() {
        return loadRequests;
    }

    /** Bytes of the table. */
    public long bytes() {
        return footer.fileBytes();
    }
}
