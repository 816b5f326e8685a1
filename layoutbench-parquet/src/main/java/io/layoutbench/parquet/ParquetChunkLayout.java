package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

import org.apache.parquet.format.ColumnChunk;
import org.apache.parquet.format.ColumnMetaData;
import org.apache.parquet.format.FileMetaData;
import org.apache.parquet.format.RowGroup;

/**
 * Where the bytes of a Parquet object lie, as its footer says: the footer itself and every column chunk, its
 * dictionary page included. Unlike {@link ParquetFooter}, which reads flat tables in order to query them, this
 * reads any Parquet object, nested schemas and any codec too, since it needs only the chunks' offsets and sizes.
 * Both are read by the same code: the magic, the footer length and the Thrift metadata are checked and parsed in
 * one place. For code that places or moves bytes by chunk, such as erasure coding that keeps chunks whole.
 *
 * <pre>{@code
 * ParquetChunkLayout layout = ParquetChunkLayout.read(key, size, range -> read(range));
 * for (ParquetChunkLayout.Chunk chunk : layout.chunks()) {
 *     System.out.println(chunk.label() + " at " + chunk.byteRange());
 * }
 * }</pre>
 *
 * @param objectLength the object's length in bytes
 * @param footerRange  where the Thrift footer lies (without its length and magic)
 * @param chunks       every column chunk, in footer order (row group by row group, columns in schema order)
 */
public record ParquetChunkLayout(long objectLength, ByteRange footerRange, List<Chunk> chunks) {

    public ParquetChunkLayout {
        requireNonNull(footerRange, "footerRange is null");
        chunks = List.copyOf(requireNonNull(chunks, "chunks is null"));
    }

    /**
     * One column chunk.
     *
     * @param rowGroup  its row group's position in the file
     * @param column    its position among the row group's chunks
     * @param path      the column's path in the schema, its names joined by dots ({@code a.b.c} when nested)
     * @param byteRange its bytes: its dictionary page, if any, and all its data pages
     */
    public record Chunk(int rowGroup, int column, String path, ByteRange byteRange) {

        public Chunk {
            requireNonNull(path, "path is null");
            requireNonNull(byteRange, "byteRange is null");
        }

        /** "row group 3, column a.b", for messages. */
        public String label() {
            return "row group " + rowGroup + ", column " + path;
        }
    }

    /**
     * Reads the layout of the Parquet object {@code key} of {@code objectLength} bytes through {@code read}, which
     * returns exactly the bytes of a range of the object: its first 4 bytes, its last 8, then its footer.
     *
     * @param key names the object in errors
     * @throws ParquetFormatException naming {@code key} and why, when the object is not Parquet (too short, a bad
     *         magic), is encrypted, or its footer cannot be parsed, or a chunk has no metadata, lies in another file,
     *         is empty or does not lie between the leading magic and the footer
     */
    public static ParquetChunkLayout read(String key, long objectLength, Function<ByteRange, ByteBuffer> read) {
        requireNonNull(key, "key is null");
        requireNonNull(read, "read is null");
        FooterFormat.checkLength(key, objectLength);
        FooterFormat.checkLeadingMagic(key, read.apply(ByteRange.of(0, 4)));
        ByteRange footerRange = FooterFormat.locate(key, objectLength, read.apply(ByteRange.of(objectLength - 8, 8)));
        FileMetaData metadata = FooterFormat.parseMetadata(key, read.apply(footerRange), footerRange);
        List<Chunk> chunks = new ArrayList<>();
        List<RowGroup> rowGroups = metadata.getRow_groups() == null ? List.of() : metadata.getRow_groups();
        for (int g = 0; g < rowGroups.size(); g++) {
            List<ColumnChunk> columns = rowGroups.get(g).getColumns();
            for (int c = 0; columns != null && c < columns.size(); c++) {
                chunks.add(chunk(key, g, c, columns.get(c), footerRange));
            }
        }
        return new ParquetChunkLayout(objectLength, footerRange, chunks);
    }

    private static Chunk chunk(String key, int rowGroup, int column, ColumnChunk chunk, ByteRange footerRange) {
        if (!chunk.isSetMeta_data()) {
            throw new ParquetFormatException("Cannot read column " + column + " of row group " + rowGroup + " of "
                    + key + ": its metadata is encrypted or missing");
        }
        ColumnMetaData metadata = chunk.getMeta_data();
        String path = metadata.getPath_in_schema() == null ? "#" + column
                : String.join(".", metadata.getPath_in_schema());
        String where = "row group " + rowGroup + ", column " + path + " of " + key;
        if (chunk.isSetFile_path()) {
            throw new ParquetFormatException("Cannot read " + where + ": it lies in another file, "
                    + chunk.getFile_path());
        }
        long start = FooterFormat.chunkStart(metadata);
        long length = metadata.getTotal_compressed_size();
        // Compared without adding: the length of a damaged footer may be anything up to Long.MAX_VALUE.
        if (start < 4 || length <= 0 || start > footerRange.offset() || length > footerRange.offset() - start) {
            throw new ParquetFormatException("Cannot read " + where + ": its chunk at [" + start + ", +" + length
                    + ") does not lie between the leading magic and the footer at " + footerRange);
        }
        return new Chunk(rowGroup, column, path, ByteRange.of(start, length));
    }
}
