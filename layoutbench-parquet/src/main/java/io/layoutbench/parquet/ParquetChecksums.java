package io.layoutbench.parquet;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;

import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * CRC32Cs of the regions of one Parquet object that a reader trusts and fetches anyway, recorded elsewhere (a dataset
 * manifest) because the object itself must stay as parquet-java wrote it: the footer region (the Thrift footer, its
 * length and the trailing magic), the page-index region (every column and offset index, which parquet-java writes
 * together before the footer) and, per row group, the metadata chunks (the chunks of every column with a metadata
 * type, that is all but blob columns, in column order). A {@link ParquetObject} opened with them checks each region
 * as its bytes arrive, from the bytes it fetches anyway, so checking costs CPU (CRC32C, a few GB/s) and no request.
 * Data pages carry their own CRC32 (parquet-java writes one per page), which the page decoders check.
 *
 * <pre>{@code
 * ParquetChecksums written = ParquetChecksums.of(localFile);         // at ingest, after the writer closed
 * ParquetObject part = ParquetObject.open(new BackendInputFile(backend, key, size, FetchOptions.defaults()), written);
 * part.readMetadataColumns();                                        // CorruptDataException if a chunk was changed
 * }</pre>
 *
 * @param footer         the footer region, {@code [footer start, object end)}
 * @param pageIndexes    the page-index region, when the object has page indexes
 * @param metadataChunks per row group, the CRC32C of its metadata chunks' bytes, one chunk after the other
 */
public record ParquetChecksums(Region footer, Optional<Region> pageIndexes, List<Integer> metadataChunks) {

    /** Bytes read from a local file at a time. */
    private static final int WINDOW = 64 << 10;

    public ParquetChecksums {
        requireNonNull(footer, "footer is null");
        requireNonNull(pageIndexes, "pageIndexes is null");
        metadataChunks = List.copyOf(requireNonNull(metadataChunks, "metadataChunks is null"));
    }

    /**
     * A byte range of an object and the CRC32C of its bytes.
     *
     * @param range  where the region lies
     * @param crc32c CRC32C of its bytes
     */
    public record Region(ByteRange range, int crc32c) {
        public Region {
            requireNonNull(range, "range is null");
        }

        /**
         * Checks that {@code bytes} (each buffer's remaining bytes, one after the other) are this region's.
         *
         * @param what the region and object, for the error: "the footer region of KEY"
         * @throws CorruptDataException naming {@code what}, the range and both checksums when they are not
         */
        public void verify(String what, ByteBuffer... bytes) {
            long length = 0;
            for (ByteBuffer part : bytes) {
                length += part.remaining();
            }
            if (length != range.length()) {
                throw new CorruptDataException("Cannot check " + what + " " + range + ": " + length + " bytes were "
                        + "read for its " + range.length());
            }
            ParquetChecksums.verify(crc32c, what + " " + range, bytes);
        }
    }

    /**
     * Checks that the buffers' remaining bytes, one after the other, have the CRC32C {@code expected}.
     *
     * @param what what the bytes are, for the error: "the metadata column chunks of row group 3 of KEY"
     * @throws CorruptDataException naming {@code what} and both checksums when they do not
     */
    static void verify(int expected, String what, ByteBuffer... bytes) {
        int actual = crc(bytes);
        if (actual != expected) {
            long length = 0;
            for (ByteBuffer part : bytes) {
                length += part.remaining();
            }
            throw new CorruptDataException(String.format("Checksum mismatch in %s: CRC32C is %08x, expected %08x "
                    + "(%d bytes)", what, actual, expected, length));
        }
    }

    /**
     * The checksums of the Parquet file {@code file}, read back from the local file: its footer, its page indexes and
     * its metadata chunks (the blob chunks, usually the bulk of it, are not read).
     *
     * @throws ParquetFormatException if the file is not a flat Parquet table
     * @throws UncheckedIOException   if the file cannot be read
     */
    public static ParquetChecksums of(Path file) {
        String key = file.toString();
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            long length = channel.size();
            FooterFormat.checkLength(key, length);
            ByteBuffer trailer = read(channel, ByteRange.of(length - 8, 8));
            ByteRange footerRange = FooterFormat.locate(key, length, trailer);
            ByteBuffer footerBytes = read(channel, footerRange);
            ParquetFooter footer = ParquetFooter.parse(key, length, footerRange, footerBytes);
            Region footerRegion = new Region(ByteRange.between(footerRange.offset(), length),
                    crc(footerBytes, trailer));
            ByteBuffer window = ByteBuffer.allocate(WINDOW);
            Optional<Region> pageIndexes = Optional.empty();
            if (footer.pageIndexRange().isPresent()) {
                ByteRange range = footer.pageIndexRange().get();
                pageIndexes = Optional.of(new Region(range, crc(channel, List.of(range), window)));
            }
            List<ParquetColumn> metadataColumns = metadataColumns(footer);
            List<Integer> metadataChunks = new ArrayList<>(footer.rowGroups().size());
            for (RowGroupInfo group : footer.rowGroups()) {
                metadataChunks.add(crc(channel, metadataColumns.stream()
                        .map(c -> group.columns().get(c.index()).byteRange()).toList(), window));
            }
            return new ParquetChecksums(footerRegion, pageIndexes, metadataChunks);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot checksum the Parquet file " + file + ": " + e.getMessage(), e);
        }
    }

    /** The columns whose chunks {@link #metadataChunks} covers: those with a metadata type, in column order. */
    static List<ParquetColumn> metadataColumns(ParquetFooter footer) {
        return footer.columns().stream().filter(c -> c.type().isPresent()).toList();
    }

    /**
     * Checks that these checksums describe {@code footer}'s object: same page-index region, one checksum per row
     * group. Called once the footer region is verified, so a difference means the checksums belong to another file.
     */
    void checkMatches(ParquetFooter footer) {
        Optional<ByteRange> recorded = pageIndexes.map(Region::range);
        if (!recorded.equals(footer.pageIndexRange()) || metadataChunks.size() != footer.rowGroups().size()) {
            throw new CorruptDataException("The checksums expected for " + footer.key() + " describe another file: "
                    + "page indexes at " + recorded.map(ByteRange::toString).orElse("none") + " and "
                    + metadataChunks.size() + " row groups, but its footer has page indexes at "
                    + footer.pageIndexRange().map(ByteRange::toString).orElse("none") + " and "
                    + footer.rowGroups().size() + " row groups");
        }
    }

    /** The CRC32C of the buffers' remaining bytes, one after the other. */
    static int crc(ByteBuffer... buffers) {
        CRC32C crc = new CRC32C();
        for (ByteBuffer buffer : buffers) {
            crc.update(buffer.duplicate());
        }
        return (int) crc.getValue();
    }

    /** The CRC32C of the ranges' bytes, one after the other, read through {@code window}. */
    private static int crc(FileChannel channel, List<ByteRange> ranges, ByteBuffer window) throws IOException {
        CRC32C crc = new CRC32C();
        for (ByteRange range : ranges) {
            long position = range.offset();
            while (position < range.end()) {
                window.clear().limit((int) Math.min(window.capacity(), range.end() - position));
                position += readFully(channel, window, position);
                crc.update(window.flip());
            }
        }
        return (int) crc.getValue();
    }

    private static ByteBuffer read(FileChannel channel, ByteRange range) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(Math.toIntExact(range.length()));
        // A window at a time: a heap buffer read in one call would make the JDK cache a direct buffer its size.
        for (long done = 0; done < range.length(); ) {
            buffer.limit((int) Math.min(buffer.capacity(), done + WINDOW));
            done += readFully(channel, buffer, range.offset() + done);
        }
        return buffer.flip();
    }

    /** Fills {@code buffer} from its position to its limit with the bytes at {@code position}; returns the count. */
    private static int readFully(FileChannel channel, ByteBuffer buffer, long position) throws IOException {
        int total = 0;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, position + total);
            if (n < 0) {
                throw new EOFException("Reached the end of the file at offset " + (position + total));
            }
            total += n;
        }
        return total;
    }
}
