package io.layoutbench.parquet;

import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.StringDictionary;

import java.nio.ByteBuffer;

import org.apache.parquet.VersionParser;
import org.apache.parquet.column.ColumnDescriptor;
import org.apache.parquet.column.Dictionary;
import org.apache.parquet.column.impl.ColumnReaderImpl;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.PrimitiveConverter;

/**
 * Decodes the fetched chunks of one column, row group after row group, into the arrays of a {@link ColumnVector},
 * using parquet-column's {@code ColumnReaderImpl} for the encodings (plain, dictionary, RLE levels). String values are
 * interned into one {@link StringDictionary}: a dictionary page is mapped once, then each row costs an array lookup.
 * Not thread-safe.
 */
abstract sealed class ColumnDecoder extends PrimitiveConverter {

    final ParquetColumn column;
    /** The null bitmap, allocated at the first NULL. */
    private long[] nulls;
    private final int rowCount;
    int row;

    private ColumnDecoder(ParquetColumn column, int rowCount) {
        this.column = column;
        this.rowCount = rowCount;
    }

    static ColumnDecoder create(ParquetColumn column, int rowCount) {
        return switch (column.type().orElseThrow(() -> new IllegalArgumentException("Column " + column.name()
                + " is " + column.physicalType() + " with no metadata type (a blob column?); it cannot be read "
                + "as metadata"))) {
            case BIGINT -> new LongDecoder(column, rowCount);
            case DOUBLE -> new DoubleDecoder(column, rowCount);
            case BOOLEAN -> new BooleanDecoder(column, rowCount);
            case STRING -> new StringDecoder(column, rowCount);
        };
    }

    /** Decodes {@code chunk} (the bytes of {@code info}) into rows {@code [firstRow, firstRow + valueCount)}. */
    void decode(ByteBuffer chunk, ColumnChunkInfo info, long firstRow, ColumnDescriptor descriptor,
            VersionParser.ParsedVersion writerVersion, PageDecompressor decompressor, String where) {
        ChunkPageReader pages = new ChunkPageReader(chunk, info, decompressor, where);
        try {
            ColumnReaderImpl reader = new ColumnReaderImpl(descriptor, pages, this, writerVersion);
            int maxDefinition = descriptor.getMaxDefinitionLevel();
            long values = pages.getTotalValueCount();
            row = Math.toIntExact(firstRow);
            for (long i = 0; i < values; i++, row++) {
                if (reader.getCurrentDefinitionLevel() == maxDefinition) {
                    reader.writeCurrentValueToConverter();
                } else {
                    if (nulls == null) {
                        nulls = new long[ColumnVector.bitmapWords(rowCount)];
                    }
                    nulls[row >>> 6] |= 1L << row;
                    addNull();
                }
                reader.consume();
            }
        } catch (ParquetFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw new ParquetFormatException("Cannot decode " + where + " at " + info.byteRange() + " (row "
                    + row + "): " + e.getMessage(), e);
        }
    }

    void addNull() {
    }

    abstract ColumnVector finish();

    long[] nulls() {
        return nulls == null ? ColumnVector.NO_NULLS : nulls;
    }

    private static final class LongDecoder extends ColumnDecoder {
        private final long[] values;

        LongDecoder(ParquetColumn column, int rowCount) {
            super(column, rowCount);
            values = new long[rowCount];
        }

        @Override
        public void addLong(long value) {
            values[row] = value;
        }

        @Override
        public void addInt(int value) {
            values[row] = value;
        }

        /** A DECIMAL stored in bytes: its unscaled integer (the footer admits only those that fit 64 bits). */
        @Override
        public void addBinary(Binary value) {
            Long unscaled = ParquetFooter.bigEndianLong(value.toByteBuffer());
            if (unscaled == null) {
                throw new ParquetFormatException("A DECIMAL of " + value.length() + " bytes does not fit 64 bits");
            }
            values[row] = unscaled;
        }

        @Override
        ColumnVector finish() {
            return new ColumnVector.Longs(values, nulls());
        }
    }

    private static final class DoubleDecoder extends ColumnDecoder {
        private final double[] values;

        DoubleDecoder(ParquetColumn column, int rowCount) {
            super(column, rowCount);
            values = new double[rowCount];
        }

        @Override
        public void addDouble(double value) {
            values[row] = value;
        }

        @Override
        public void addFloat(float value) {
            values[row] = value;
        }

        @Override
        ColumnVector finish() {
            return new ColumnVector.Doubles(values, nulls());
        }
    }

    private static final class BooleanDecoder extends ColumnDecoder {
        private final boolean[] values;

        BooleanDecoder(ParquetColumn column, int rowCount) {
            super(column, rowCount);
            values = new boolean[rowCount];
        }

        @Override
        public void addBoolean(boolean value) {
            values[row] = value;
        }

        @Override
        ColumnVector finish() {
            return new ColumnVector.Booleans(values, nulls());
        }
    }

    private static final class StringDecoder extends ColumnDecoder {
        private final int[] ids;
        private final StringDictionary.Builder dictionary = StringDictionary.builder();
        private int[] pageIds = new int[0];

        StringDecoder(ParquetColumn column, int rowCount) {
            super(column, rowCount);
            ids = new int[rowCount];
        }

        @Override
        public boolean hasDictionarySupport() {
            return true;
        }

        @Override
        public void setDictionary(Dictionary pageDictionary) {
            pageIds = new int[pageDictionary.getMaxId() + 1];
            for (int id = 0; id < pageIds.length; id++) {
                pageIds[id] = dictionary.add(pageDictionary.decodeToBinary(id).toByteBuffer());
            }
        }

        @Override
        public void addValueFromDictionary(int dictionaryId) {
            ids[row] = pageIds[dictionaryId];
        }

        @Override
        public void addBinary(Binary value) {
            ids[row] = dictionary.add(value.toByteBuffer());
        }

        @Override
        void addNull() {
            ids[row] = -1;
        }

        @Override
        ColumnVector finish() {
            return new ColumnVector.Strings(ids, dictionary.build());
        }
    }
}
