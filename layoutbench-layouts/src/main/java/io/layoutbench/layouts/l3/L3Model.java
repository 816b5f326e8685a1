package io.layoutbench.layouts.l3;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalPlan;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.model.DatasetMetadata;
import io.layoutbench.api.model.LayoutModel;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.ColumnStatistics;
import io.layoutbench.api.predicate.GroupStatistics;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.Selection;
import io.layoutbench.layouts.common.GenerationalDatasetWriter;
import io.layoutbench.layouts.common.MetadataParquet;
import io.layoutbench.layouts.common.MetadataTableModel;
import io.layoutbench.parquet.ColumnPageIndex;
import io.layoutbench.parquet.PageInfo;
import io.layoutbench.parquet.ParquetTableSchema;
import io.layoutbench.parquet.model.ColumnModel;
import io.layoutbench.parquet.model.ParquetFileModel;
import io.layoutbench.parquet.model.ParquetFooterModel;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * L3 modelled over a dataset's metadata, for one file size, row-group size and page size. Building it splits the
 * samples into parts as {@link L3Writer} does ({@link L3Writer#startsNewPart}), and lays each part out with
 * parquet-java's size model ({@link ParquetFileModel}: where pages and row groups close, and their bytes); queries
 * are planned by {@link L3Planner}, the datasets' own planner, over these modelled parts.
 *
 * <p>Exact: which rows share a page and which pages share a row group and part (barring a metadata page closing
 * mid-row-group, whose encoded size is modelled, not measured), every decision of the planner, and the round trips
 * of a cold load. Estimated: a page's header (its CRC's varint length, a byte either way), the metadata chunks'
 * sizes (dictionary and run-length encoding replayed from the values; checksums are unknown and taken as all
 * distinct), the page indexes and footers, and a metadata file's size (its table modelled as L1's; one read of it,
 * as the dataset reads files up to 16 MiB whole).
 */
final class L3Model implements LayoutModel {

    private final DatasetMetadata data;
    private final L3Layout.Settings settings;
    private final List<ModelledPart> parts = new ArrayList<>();

    L3Model(DatasetMetadata data, L3Layout.Settings settings) {
        this.data = requireNonNull(data, "data is null");
        this.settings = requireNonNull(settings, "settings is null");
        ParquetTableSchema tableSchema = L3Writer.tableSchema(data.schema());
        List<ColumnModel> columns = new ArrayList<>();
        for (int c = 0; c < data.schema().size(); c++) {
            columns.add(ColumnModel.of(data.metadata(), c));
        }
        for (Column extra : tableSchema.extraColumns()) {
            columns.add(extra.name().equals(MetadataParquet.CRC32C) ? ColumnModel.distinctLongs()
                    : ColumnModel.longs(data.sizes()));
        }
        int nameBytes = 0;
        for (String name : tableSchema.physicalNames()) {
            nameBytes += name.getBytes(StandardCharsets.UTF_8).length;
        }
        int n = data.sampleCount();
        PartBuilder part = null;
        for (int row = 0; row < n; row++) {
            if (part != null && L3Writer.startsNewPart(part.file.rowCount(), part.file.dataSize(), data.size(row),
                    settings.fileSize())) {
                parts.add(part.finish());
                part = null;
            }
            if (part == null) {
                part = new PartBuilder(parts.size(), columns, nameBytes);
            }
            part.file.write(row);
        }
        if (part != null) {
            parts.add(part.finish());
        }
    }

    @Override
    public String layout() {
        return L3Layout.NAME;
    }

    @Override
    public Map<String, String> options() {
        return settings.options();
    }

    @Override
    public String settings() {
        Map<String, String> options = settings.options();
        return "page " + options.get(L3Layout.PAGE_SIZE) + ", row group " + options.get(L3Layout.ROW_GROUP_SIZE)
                + ", file " + options.get(L3Layout.FILE_SIZE);
    }

    /** Bytes of each part file. */
    long[] partBytes() {
        return parts.stream().mapToLong(p -> p.footer.fileBytes()).toArray();
    }

    @Override
    public RetrievalPlan plan(Query query, QueryOptions options) {
        BoundQuery bound = query.bind(data.schema());
        L3Planner.Plan<ModelledGroup> plan = L3Planner.plan(new Catalog(), null, bound, options);
        List<List<PlannedRequest>> reads = new ArrayList<>(plan.reads().size());
        plan.reads().forEach(read -> reads.add(read.requests()));
        return RetrievalPlan.ofTasks(plan.coldRequests(), reads, plan.samples(), plan.payloadBytes(),
                plan.metadataRounds());
    }

    @Override
    public String toString() {
        return "l3 model [" + settings() + "] of " + data + ": " + parts.size() + " parts";
    }

    /** The modelled parts as the planner sees them; nothing is loaded, so every future is complete. */
    private final class Catalog implements L3Planner.Catalog<ModelledGroup> {
        @Override
        public List<ModelledPart> parts(ObjectBackend reads, int window) {
            return parts;
        }

        @Override
        public CompletableFuture<ModelledGroup> metadata(L3Planner.Part part, int rowGroup, ObjectBackend reads) {
            ModelledPart modelled = (ModelledPart) part;
            ParquetFileModel.RowGroup group = modelled.rowGroups.get(rowGroup);
            // With a metadata file, the part's opening read it: a row group's metadata costs no request.
            List<PlannedRequest> load = settings.metadataFile() ? List.of()
                    : List.of(new PlannedRequest(RequestKind.RANGE_GET, modelled.key,
                            ByteRange.of(group.offset(), group.metadataBytes(modelled.metadataColumns))));
            return CompletableFuture.completedFuture(new ModelledGroup(group.firstRow(), group.rows(), load));
        }

        @Override
        public List<PlannedRequest> loadRequests(ModelledGroup metadata) {
            return metadata.load();
        }

        @Override
        public Selection select(ModelledGroup group, BoundQuery query) {
            // The same evaluator over the same rows as the dataset's row group, as positions in the group.
            Selection rows = query.select(data.metadata(), group.firstRow(), group.firstRow() + group.rows());
            int[] inGroup = rows.toArray();
            for (int i = 0; i < inGroup.length; i++) {
                inGroup[i] -= group.firstRow();
            }
            return Selection.of(inGroup);
        }

        @Override
        public long payloadBytes(ModelledGroup group, int[] rows) {
            long bytes = 0;
            for (int row : rows) {
                bytes += data.size(group.firstRow() + row);
            }
            return bytes;
        }

        @Override
        public CompletableFuture<List<PlannedRequest>> pageIndexes(L3Planner.Part part, ObjectBackend reads) {
            ModelledPart modelled = (ModelledPart) part;
            return CompletableFuture.completedFuture(modelled.footer.pageIndexRequests(modelled.key,
                    modelled.tailSize));
        }
    }

    /** A modelled row group's metadata load: its rows in the dataset and the request reading its metadata chunks. */
    private record ModelledGroup(int firstRow, int rows, List<PlannedRequest> load) {
    }

    /**
     * The bytes of the metadata file of the part holding rows {@code [fromRow, toRow)}: its table modelled as L1's and
     * L2's metadata tables are, written by the same writer.
     */
    private long metadataFileBytes(int fromRow, int toRow) {
        ParquetTableSchema schema = L3Writer.metadataFileSchema(data.schema(), false);
        Map<String, ColumnModel> extras = new HashMap<>();
        for (Column extra : schema.extraColumns()) {
            extras.put(extra.name(), extra.name().equals(MetadataParquet.CRC32C) ? ColumnModel.distinctLongs()
                    : ColumnModel.longs(data.sizes()));
        }
        return MetadataTableModel.of("metadata file", data, schema, extras, fromRow, toRow).bytes();
    }

    /** One part file while its rows are modelled. */
    private final class PartBuilder {
        final int index;
        final int metadataColumns;
        final ParquetFileModel file;
        final List<List<PageInfo>> pages = new ArrayList<>();

        PartBuilder(int index, List<ColumnModel> columns, int nameBytes) {
            this.index = index;
            this.metadataColumns = columns.size();
            this.file = new ParquetFileModel(columns, nameBytes, data::size, settings.rowGroupSize(),
                    settings.pageSize(), this::page);
        }

        private void page(int rowGroup, long offset, long bytes, int firstRow, int rows) {
            while (pages.size() <= rowGroup) {
                pages.add(new ArrayList<>());
            }
            List<PageInfo> group = pages.get(rowGroup);
            group.add(new PageInfo(group.size(), offset, Math.toIntExact(bytes), firstRow, rows, Optional.empty()));
        }

        ModelledPart finish() {
            ParquetFileModel.Written written = file.close();
            String key = GenerationalDatasetWriter.objectKey("", GenerationalDatasetWriter.MODELLED_GENERATION,
                    L3Writer.partObject(index));
            return new ModelledPart(index, key, written, pages, metadataColumns);
        }
    }

    /** A modelled part file: its row groups, their statistics and blob pages, and its footer. */
    private final class ModelledPart implements L3Planner.Part {
        final int index;
        final String key;
        final List<ParquetFileModel.RowGroup> rowGroups;
        final List<GroupStatistics> statistics = new ArrayList<>();
        final List<ColumnPageIndex> blobPages = new ArrayList<>();
        final ParquetFooterModel footer;
        final int metadataColumns;
        /** The footer's reads, then the metadata file's (read whole) if the part has one. */
        final List<PlannedRequest> openRequests;
        /** What the first read of the footer fetches ({@link PartFile#openTailSize}). */
        final int tailSize;
        final List<PlannedRequest> footerRequests;

        ModelledPart(int index, String key, ParquetFileModel.Written written, List<List<PageInfo>> pages,
                int metadataColumns) {
            this.index = index;
            this.key = key;
            this.rowGroups = written.rowGroups();
            this.footer = written.footer();
            this.metadataColumns = metadataColumns;
            this.tailSize = PartFile.openTailSize(footer.metadataTailBytes(), footer.footerBytes() + 8);
            this.footerRequests = footer.footerRequests(key, tailSize);
            List<PlannedRequest> opening = new ArrayList<>(footerRequests);
            if (settings.metadataFile()) {
                ParquetFileModel.RowGroup last = rowGroups.get(rowGroups.size() - 1);
                long bytes = metadataFileBytes(rowGroups.get(0).firstRow(), last.firstRow() + last.rows());
                String file = GenerationalDatasetWriter.objectKey("", GenerationalDatasetWriter.MODELLED_GENERATION,
                        L3Writer.metadataObject(index));
                opening.add(new PlannedRequest(RequestKind.RANGE_GET, file, ByteRange.of(0, bytes)));
            }
            this.openRequests = List.copyOf(opening);
            for (int g = 0; g < rowGroups.size(); g++) {
                ParquetFileModel.RowGroup group = rowGroups.get(g);
                // With a metadata file the dataset prunes no row group (PartFile), nor does its model.
                statistics.add(settings.metadataFile() ? new GroupStatistics(group.rows(), Map.of())
                        : parquetStatistics(group.firstRow(), group.firstRow() + group.rows()));
                // Pages were reported with dataset rows; the page index counts rows within the row group.
                List<PageInfo> inGroup = new ArrayList<>();
                for (PageInfo page : g < pages.size() ? pages.get(g) : List.<PageInfo>of()) {
                    inGroup.add(new PageInfo(page.index(), page.offset(), page.compressedSize(),
                            page.firstRow() - group.firstRow(), page.rowCount(), Optional.empty()));
                }
                blobPages.add(new ColumnPageIndex(g, L3Layout.IMAGE_BYTES, inGroup));
            }
        }

        @Override
        public int index() {
            return index;
        }

        @Override
        public String key() {
            return key;
        }

        @Override
        public List<PlannedRequest> footerRequests() {
            return openRequests;
        }

        @Override
        public int openRounds() {
            return footerRequests.size();   // a metadata file is read beside the footer
        }

        @Override
        public int rowGroupCount() {
            return rowGroups.size();
        }

        @Override
        public GroupStatistics statistics(int rowGroup) {
            return statistics.get(rowGroup);
        }

        @Override
        public List<ByteRange> chunkRanges(int rowGroup) {
            ParquetFileModel.RowGroup group = rowGroups.get(rowGroup);
            List<ByteRange> chunks = new ArrayList<>();
            long offset = group.offset();
            for (long bytes : group.chunkBytes()) {
                chunks.add(ByteRange.of(offset, bytes));
                offset += bytes;
            }
            return chunks;
        }

        @Override
        public ColumnPageIndex blobPages(int rowGroup, String column) {
            return blobPages.get(rowGroup);   // the modelled datasets have the one blob column image_bytes
        }
    }

    /** Row-group statistics as a Parquet footer has them: bounds and NULL counts, no distinct values. */
    private GroupStatistics parquetStatistics(int from, int to) {
        GroupStatistics exact = data.metadata().statistics(from, to);
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
}
