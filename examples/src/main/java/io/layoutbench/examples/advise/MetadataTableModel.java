package io.layoutbench.examples.advise;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.parquet.ParquetWriteOptions;

import java.util.ArrayList;
import java.util.List;

/**
 * The metadata table of L1 and L2 (a Parquet file of the metadata columns, the checksum and the layout's location
 * columns, written with the default 128 MB row groups and 1 MiB pages), modelled from the values, and the reads a
 * cold client makes to load it: the footer (the file's last 64 KiB), then every column chunk not in that tail,
 * merged per row group.
 */
final class MetadataTableModel {

    private final ParquetFooterModel footer;
    private final List<PlannedRequest> loadRequests;

    /**
     * @param key       the table's object key
     * @param rows      rows in the table
     * @param columns   its columns in file order
     * @param nameBytes sum of the columns' names' lengths
     */
    MetadataTableModel(String key, int rows, List<ColumnModel> columns, int nameBytes) {
        ParquetFileModel file = new ParquetFileModel(columns, nameBytes, null,
                ParquetWriteOptions.DEFAULT_ROW_GROUP_SIZE, ParquetWriteOptions.DEFAULT_PAGE_SIZE, null);
        for (int row = 0; row < rows; row++) {
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

    /** The reads loading the table takes, in order. */
    List<PlannedRequest> loadRequests() {
        return loadRequests;
    }

    /** The end of the table: page indexes and footer. */
    ParquetFooterModel footer() {
        return footer;
    }

    /** Bytes of the table. */
    long bytes() {
        return footer.fileBytes();
    }
}
