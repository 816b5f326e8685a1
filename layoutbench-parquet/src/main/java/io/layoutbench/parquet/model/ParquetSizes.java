package io.layoutbench.parquet.model;

/**
 * Sizes of what parquet-java 1.18 writes for the layouts' Parquet files (uncompressed, data page v1, dictionary
 * encoding with fallback to plain, page checksums on), computed from value sizes instead of by writing: page headers,
 * the run-length/bit-packing hybrid encoding of dictionary ids and definition levels, and column chunks.
 *
 * <p>Exact where the bytes follow from the values' sizes and equality. Not exact: each page header holds the CRC32 of
 * the page as a zigzag varint, whose length (1 to 5 bytes) depends on the page's bytes; it is counted as 5 bytes,
 * which it is 15 times in 16. So a page's predicted size is off by a byte now and then.
 *
 * <p>Stateless; thread-safe.
 */
final class ParquetSizes {

    /** Bytes the CRC32 of a page takes in its header: a zigzag varint of a random int32 is 5 bytes 15 times in 16. */
    static final int CRC_BYTES = 5;
    /** parquet-java closes a page once its buffered size is within 10 % of the page size. */
    static final float PAGE_SIZE_TOLERANCE = 0.1f;
    /** parquet-java closes a page after this many rows whatever its size. */
    static final int PAGE_ROW_COUNT_LIMIT = 20_000;
    /** Largest dictionary before a column chunk falls back to plain encoding (the layouts keep the 1 MiB default). */
    static final long MAX_DICTIONARY_BYTES = 1L << 20;

    private ParquetSizes() {
    }

    /** Bytes of the unsigned varint {@code value}. */
    static int varint(long value) {
        int bytes = 1;
        while ((value & ~0x7FL) != 0) {
            bytes++;
            value >>>= 7;
        }
        return bytes;
    }

    /** Bytes of the zigzag varint of {@code value}, as Thrift's compact protocol writes an i32 or i64. */
    static int zigzag(long value) {
        return varint((value << 1) ^ (value >> 63));
    }

    /** Whether a page of {@code pageSize} closes with {@code buffered} bytes in it. */
    static boolean pageFull(long buffered, long rows, long pageSize) {
        long tolerance = (long) (pageSize * PAGE_SIZE_TOLERANCE);
        return pageSize - buffered <= tolerance || rows >= PAGE_ROW_COUNT_LIMIT;
    }

    /**
     * A data page header (v1, uncompressed, with CRC): type, both sizes, CRC, then the data page header (values,
     * three encodings).
     */
    static int dataPageHeader(long pageBytes, long values) {
        return 15 + 2 * zigzag(pageBytes) + CRC_BYTES + zigzag(values);
    }

    /** A dictionary page header (uncompressed, with CRC). */
    static int dictionaryPageHeader(long pageBytes, long entries) {
        return 12 + 2 * zigzag(pageBytes) + CRC_BYTES + zigzag(entries);
    }

    /** Bit width of dictionary ids when the dictionary has {@code entries} entries. */
    static int bitWidth(int entries) {
        int maxId = Math.max(0, entries - 1);
        return 32 - Integer.numberOfLeadingZeros(maxId);
    }

    /**
     * The run-length/bit-packing hybrid encoder's output size, fed one value at a time (a faithful replay of
     * parquet-java's {@code RunLengthBitPackingHybridEncoder}, counting bytes instead of writing them).
     */
    static final class Hybrid {
        private final int bitWidth;
        private long bytes;
        private int previous;
        private int repeats;
        private int buffered;
        private boolean inBitPackedRun;
        private int groups;

        Hybrid(int bitWidth) {
            this.bitWidth = bitWidth;
        }

        void add(int value) {
            if (value == previous) {
                repeats++;
                if (repeats >= 8) {
                    return;
                }
            } else {
                if (repeats >= 8) {
                    rleRun();
                }
                repeats = 1;
                previous = value;
            }
            buffered++;
            if (buffered == 8) {
                bitPackedGroup();
            }
        }

        private void bitPackedGroup() {
            if (groups >= 63) {
                endBitPackedRun();
            }
            if (!inBitPackedRun) {
                bytes++;
                inBitPackedRun = true;
            }
            bytes += bitWidth;
            buffered = 0;
            repeats = 0;
            groups++;
        }

        private void endBitPackedRun() {
            inBitPackedRun = false;
            groups = 0;
        }

        private void rleRun() {
            endBitPackedRun();
            bytes += varint((long) repeats << 1) + (bitWidth + 7) / 8;
            repeats = 0;
            buffered = 0;
        }

        /** The encoded size once every value is in. */
        long finish() {
            if (repeats >= 8) {
                rleRun();
            } else if (buffered > 0) {
                bitPackedGroup();
                endBitPackedRun();
            }
            return bytes;
        }
    }
}
