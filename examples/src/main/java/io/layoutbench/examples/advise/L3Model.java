package io.layoutbench.examples.advise;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.ColumnStatistics;
import io.layoutbench.api.predicate.GroupStatistics;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.l3.L3Layout;
import io.layoutbench.api.layout.RangeCoalescer;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * L3 (Parquet part files with a blob column) modelled over a dataset's metadata, for one file size F, row-group
 * size R and page size P. Building it replays L3's writer: a part is finished before a row would take
 * {@code dataSize + size + 1 KiB + 64 KiB} past F; inside a part, parquet-java checks after every row whether a page
 * is within 10 % of P (then writes it) and whether the row group's buffered bytes pass R less two rows (then writes
 * the row group) — see {@link ParquetFileModel}. So the blob pages, each "consecutive blobs until the page passes
 * 0.9 P", are where L3's writer puts them.
 *
 * <p>Planning replays {@code L3Dataset.plan}: row groups whose footer statistics rule the query out are skipped;
 * the metadata columns of the others are read (cold only; under a LIMIT, only until the LIMIT is reached); then paper
 * mode reads every column chunk of each row group holding a match (one request per chunk), and optimized mode reads
 * the blob pages holding matches, merged per row group when at most the gap apart (and at most
 * {@link RangeCoalescer#maxMergedBytesFor}).
 *
 * <p>Exact: which rows share a page and which pages share a row group and part (barring a metadata page closing
 * mid-row-group, whose encoded size is modelled, not measured), and the round trips of a cold load. Estimated: a
 * page's header (its CRC's varint length, a byte either way), the metadata chunks' sizes (dictionary and run-length
 * encoding replayed from the values; the checksum column's values are unknown and taken as all distinct), the page
 * indexes and footers.
 */
final class L3Model implements LayoutModel {

    /** What L3's writer reserves per row and per file when deciding to start a new part. */
    private static final long ROW_RESERVE = 1L << 10;
    private static final long FOOTER_RESERVE = 64L << 10;
    /** Footers and row-group metadata L3 loads at once, at most. */
    private static final int MAX_FOOTERS_IN_FLIGHT = 32;
    private static final int MAX_METADATA_IN_FLIGHT = 16;

    private final DatasetMetadata data;
    private final long fileSize;
    private final long rowGroupSize;
    private final long pageSize;
    private final int metadataColumns;

    // Per row: its blob page.
    private final int[] pageOfRow;
    // Per page: where it lies and in which row group.
    private long[] pageOffset;
    private long[] pageBytes;
    private int[] pageRowGroup;
    private int pages;
    // Per row group.
    private final List<ParquetFileModel.RowGroup> rowGroups = new ArrayList<>();
    private final List<Integer> partOfRowGroup = new ArrayList<>();
    private final List<GroupStatistics> statistics = new ArrayList<>();
    // Per part.
    private final List<String> partKeys = new ArrayList<>();
    private final List<ParquetFooterModel> footers = new ArrayList<>();

    L3Model(DatasetMetadata data, String prefix, long fileSize, long rowGroupSize, long pageSize) {
        this.data = data;
        this.fileSize = fileSize;
        this.rowGroupSize = rowGroupSize;
        this.pageSize = pageSize;
        int n = data.sampleCount();
        this.pageOfRow = new int[n];
        this.pageOffset = new long[Math.max(16, n / 4)];
        this.pageBytes = new long[pageOffset.length];
        this.pageRowGroup = new int[pageOffset.length];

        List<ColumnModel> columns = new ArrayList<>();
        int nameBytes = MetadataParquet.CRC32C.length() + L3Layout.IMAGE_BYTES.length();
        for (int c = 0; c < data.schema().size(); c++) {
            columns.add(data.column(c));
            nameBytes += data.schema().columns().get(c).name().length();
        }
        columns.add(ColumnModel.distinctLongs());
        this.metadataColumns = columns.size();
        String generation = prefix + "/g00000000T000000-0000000000/";

        ParquetFileModel part = null;
        int partFirstRowGroup = 0;
        for (int row = 0; row < n; row++) {
            if (part != null && part.rowCount() > 0
                    && part.dataSize() + data.size(row) + ROW_RESERVE + FOOTER_RESERVE > fileSize) {
                partFirstRowGroup = finishPart(part, generation);
                part = null;
            }
            if (part == null) {
                int first = partFirstRowGroup;
                part = new ParquetFileModel(columns, nameBytes, data, rowGroupSize, pageSize,
                        (group, offset, bytes, firstRow, rows) -> addPage(first + group, offset, bytes, firstRow,
                                rows));
            }
            part.write(row);
        }
        if (part != null) {
            finishPart(part, generation);
        }
    }

    /** Finishes a part; returns the index its successor's first row group will have. */
    private int finishPart(ParquetFileModel part, String generation) {
        ParquetFileModel.Written written = part.close();
        int index = partKeys.size();
        partKeys.add(generation + String.format("part-%05d.parquet", index));
        footers.add(written.footer());
        for (ParquetFileModel.RowGroup group : written.rowGroups()) {
            rowGroups.add(group);
            partOfRowGroup.add(index);
            statistics.add(parquetStatistics(group.firstRow(), group.firstRow() + group.rows()));
        }
        return rowGroups.size();
    }

    private void addPage(int rowGroup, long offset, long bytes, int firstRow, int rows) {
        if (pages == pageOffset.length) {
            pageOffset = Arrays.copyOf(pageOffset, pages * 2);
            pageBytes = Arrays.copyOf(pageBytes, pages * 2);
            pageRowGroup = Arrays.copyOf(pageRowGroup, pages * 2);
        }
        pageOffset[pages] = offset;
        pageBytes[pages] = bytes;
        pageRowGroup[pages] = rowGroup;
        Arrays.fill(pageOfRow, firstRow, firstRow + rows, pages);
        pages++;
    }

    /** Row-group statistics as a Parquet footer has them: bounds and NULL counts, no distinct values. */
    private GroupStatistics parquetStatistics(int from, int to) {
        GroupStatistics exact = data.table().statistics(from, to);
        Map<String, ColumnStatistics> columns = new HashMap<>();
        for (Column column : data.schema().columns()) {
            ColumnStatistics s = exact.columns().get(column.name());
            if (s == null) {
                continue;
            }
            Object max = s.max();
            if (max != null && column.type() == ColumnType.DOUBLE) {
                max = Double.NaN;   // as L3 reads DOUBLE statistics: NaN is left out of Parquet's
            }
            columns.put(column.name(), ColumnStatistics.of(s.min(), max, s.nullCount()));
        }
        return new GroupStatistics(to - from, columns);
    }

    @Override
    public String layout() {
        return L3Layout.NAME;
    }

    @Override
    public Map<String, String> options() {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(L3Layout.FILE_SIZE, Sizes.option(fileSize));
        options.put(L3Layout.PAGE_SIZE, Sizes.option(pageSize));
        options.put(L3Layout.ROW_GROUP_SIZE, Sizes.option(rowGroupSize));
        return options;
    }

    @Override
    public String settings() {
        return "page " + Sizes.option(pageSize) + ", row group " + Sizes.option(rowGroupSize) + ", file "
                + Sizes.option(fileSize);
    }

    /** Bytes of each part file. */
    long[] partBytes() {
        return footers.stream().mapToLong(ParquetFooterModel::fileBytes).toArray();
    }

    @Override
    public RetrievalPlan plan(BoundQuery query, Selection matches, QueryOptions options) {
        boolean paper = options.mode() == RetrievalMode.PAPER;
        long gap = paper ? 0 : RangeCoalescer.gapFor(options);
        List<PlannedRequest> cold = new ArrayList<>();
        int longestFooter = 0;
        for (int part = 0; part < partKeys.size(); part++) {
            List<PlannedRequest> footer = footers.get(part).footerRequests(partKeys.get(part));
            longestFooter = Math.max(longestFooter, footer.size());
            cold.addAll(footer);
        }
        int metadataLoads = 0;
        int pageIndexRounds = 0;
        List<PlannedRequest> pageIndexReads = new ArrayList<>();
        List<PlannedRequest> reads = new ArrayList<>();
        List<String> neededKeys = new ArrayList<>();
        List<List<ByteRange>> neededPages = new ArrayList<>();   // per row group with matches
        boolean[] pageIndexesRead = new boolean[partKeys.size()];
        long remaining = query.limit().orElse(Long.MAX_VALUE);
        long payload = 0;
        long samples = 0;
        int next = 0;   // position in matches
        for (int g = 0; g < rowGroups.size() && remaining > 0; g++) {
            ParquetFileModel.RowGroup group = rowGroups.get(g);
            int end = group.firstRow() + group.rows();
            int from = next;
            while (next < matches.size() && matches.get(next) < end) {
                next++;
            }
            if (query.prune(statistics.get(g)).canSkip()) {
                continue;
            }
            int part = partOfRowGroup.get(g);
            String key = partKeys.get(part);
            cold.add(new PlannedRequest(RequestKind.RANGE_GET, key,
                    ByteRange.of(group.offset(), group.metadataBytes(metadataColumns))));
            metadataLoads++;
            int count = next - from;
            if (count == 0) {
                continue;
            }
            if (paper) {
                long offset = group.offset();
                for (long chunk : group.chunkBytes()) {
                    reads.add(new PlannedRequest(RequestKind.RANGE_GET, key, ByteRange.of(offset, chunk)));
                    offset += chunk;
                }
            } else {
                if (!pageIndexesRead[part]) {
                    pageIndexesRead[part] = true;
                    List<PlannedRequest> pageIndexes = footers.get(part).pageIndexRequests(key);
                    pageIndexReads.addAll(pageIndexes);
                    pageIndexRounds = Math.max(pageIndexRounds, pageIndexes.size());   // loaded side by side
                }
                List<ByteRange> needed = new ArrayList<>();
                int lastPage = -1;
                for (int i = from; i < next; i++) {
                    int p = pageOfRow[matches.get(i)];
                    if (p != lastPage) {
                        needed.add(ByteRange.of(pageOffset[p], pageBytes[p]));
                        lastPage = p;
                    }
                }
                neededKeys.add(key);
                neededPages.add(needed);
            }
            for (int i = from; i < next; i++) {
                payload += data.size(matches.get(i));
            }
            samples += count;
            remaining -= count;
        }
        gap = RangeCoalescer.gapWithinBudget(neededPages, gap, options.maxReadAmplification());
        for (int i = 0; i < neededPages.size(); i++) {
            for (RangeCoalescer.Merged merged : RangeCoalescer.coalesce(neededPages.get(i), gap,
                    RangeCoalescer.maxMergedBytesFor(options))) {
                reads.add(new PlannedRequest(RequestKind.RANGE_GET, neededKeys.get(i), merged.range()));
            }
        }
        cold.addAll(pageIndexReads);   // L3 plans its page runs once the page indexes, loaded meanwhile, are in
        // Round trips of a cold load, as L3 counts them: footers a window at a time (a footer longer than the tail
        // takes a second trip), row-group metadata a window at a time (one at a time under a LIMIT), then the page
        // indexes of every part with matches side by side.
        int footerWindow = Math.min(options.maxConcurrency(), MAX_FOOTERS_IN_FLIGHT);
        int metadataWindow = query.limit().isPresent() ? 1 : Math.min(options.maxConcurrency(),
                MAX_METADATA_IN_FLIGHT);
        int rounds = (partKeys.size() + footerWindow - 1) / footerWindow * longestFooter
                + (metadataLoads + metadataWindow - 1) / metadataWindow + pageIndexRounds;
        rounds = Math.max(cold.isEmpty() ? 0 : 1, Math.min(rounds, cold.size()));
        return new RetrievalPlan(cold, reads, samples, payload, rounds);
    }

    @Override
    public String toString() {
        return "l3 model [" + settings() + "]: " + partKeys.size() + " parts, " + rowGroups.size() + " row groups, "
                + pages + " blob pages";
    }
}
