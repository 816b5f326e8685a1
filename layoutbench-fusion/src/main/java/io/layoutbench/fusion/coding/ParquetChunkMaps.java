package io.layoutbench.fusion.coding;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;
import org.apache.parquet.format.Util;

/**
 * Reads the {@link ChunkMap} of a Parquet object from its footer: where every column chunk lies, its dictionary page
 * included. Works for any Parquet file, nested schemas and compressed pages too, since only the chunks' offsets and
 * sizes are read. An object that is not Parquet, or whose footer is encrypted, truncated or describes overlapping
 * chunks, gets an {@link ChunkMap#opaque opaque} map saying why; FAC then stores it in fixed-size blocks.
 *
 * <pre>{@code
 * ChunkMap map = ParquetChunkMaps.read(ObjectSource.of(bytes));
 * map.chunks().size();   // row groups x columns
 * }</pre>
 */
public final class ParquetChunkMaps {

    private static final byte[] MAGIC = "PAR1".getBytes(StandardCharsets.US_ASCII);

    private ParquetChunkMaps() {
    }

    /** The chunk map of {@code source}, or an opaque map when it is not a Parquet file this can read. */
    public static ChunkMap read(ObjectSource source) {
        requireNonNull(source, "source is null");
        long size = source.size();
        if (size < 12) {
            return ChunkMap.opaque(size, "not Parquet: " + size + " bytes is too short");
        }
        byte[] head = new byte[4];
        byte[] tail = new byte[8];
        source.read(0, head, 0, 4);
        source.read(size - 8, tail, 0, 8);
        if (!Arrays.equals(head, MAGIC) || !Arrays.equals(Arrays.copyOfRange(tail, 4, 8), MAGIC)) {
            return ChunkMap.opaque(size, "not Parquet: no PAR1 magic at both ends");
        }
        long footerLength = Integer.toUnsignedLong(ByteBuffer.wrap(tail).order(ByteOrder.LITTLE_ENDIAN).getInt(0));
        long footerStart = size - 8 - footerLength;
        if (footerLength == 0 || footerStart < 4 || footerLength > Integer.MAX_VALUE - 8) {
            return ChunkMap.opaque(size, "the footer length " + footerLength + " does not fit the object");
        }
        byte[] footer = new byte[(int) footerLength];
        source.read(footerStart, footer, 0, footer.length);
        FileMetaData metadata;
        try {
            metadata = Util.readFileMetaData(new ByteArrayInputStream(footer));
        } catch (IOException | RuntimeException e) {
            return ChunkMap.opaque(size, "cannot parse the footer at " + ByteRange.of(footerStart, footerLength)
                    + ": " + e.getMessage());
        }
        List<ObjectRegion> chunks = new ArrayList<>();
        List<RowGroup> rowGroups = metadata.getRow_groups() == null ? List.of() : metadata.getRow_groups();
        for (int g = 0; g < rowGroups.size(); g++) {
            List<ColumnChunk> columns = rowGroups.get(g).getColumns();
            for (int c = 0; columns != null && c < columns.size(); c++) {
                ColumnChunk chunk = columns.get(c);
                if (!chunk.isSetMeta_data()) {
                    return ChunkMap.opaque(size, "column " + c + " of row group " + g
                            + " has no metadata (encrypted?)");
                }
                ColumnMetaData meta = chunk.getMeta_data();
                long dataPage = meta.getData_page_offset();
                // Some writers set dictionary_page_offset to 0 for "none"; a dictionary page lies before the data.
                boolean dictionary = meta.isSetDictionary_page_offset() && meta.getDictionary_page_offset() > 0
                        && meta.getDictionary_page_offset() < dataPage;
                long start = dictionary ? meta.getDictionary_page_offset() : dataPage;
                long length = meta.getTotal_compressed_size();
                String label = "row group " + g + ", column " + String.join(".", meta.getPath_in_schema());
                if (start < 4 || length <= 0 || start + length > footerStart) {
                    return ChunkMap.opaque(size, label + " at [" + start + ", +" + length
                            + ") lies outside the data between the magic and the footer");
                }
                chunks.add(new ObjectRegion(ByteRange.of(start, length), RegionKind.COLUMN_CHUNK, label));
            }
        }
        chunks.sort(Comparator.comparingLong(r -> r.range().offset()));
        for (int i = 1; i < chunks.size(); i++) {
            if (chunks.get(i).range().offset() < chunks.get(i - 1).range().end()) {
                return ChunkMap.opaque(size, chunks.get(i - 1).label() + " and " + chunks.get(i).label()
                        + " overlap");
            }
        }
        return ChunkMap.fromChunks(size, chunks, footerStart);
    }
}
