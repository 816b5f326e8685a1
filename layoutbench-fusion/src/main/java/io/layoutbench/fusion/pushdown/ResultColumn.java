package io.layoutbench.fusion.pushdown;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.parquet.ColumnValues;
import io.layoutbench.parquet.StringDictionary;

import java.util.Arrays;
import java.util.BitSet;

import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/** One column of a query result, grown row group by row group: the selected values appended in row order. */
final class ResultColumn {

    private final String name;
    private final ColumnType type;
    private final boolean date;
    private final BitSet nulls = new BitSet();
    private long[] longs = new long[0];
    private double[] doubles = new double[0];
    private boolean[] booleans = new boolean[0];
    private int[] ids = new int[0];
    private StringDictionary.Builder dictionary;
    private int size;

    ResultColumn(String name, ColumnType type, boolean date) {
        this.name = name;
        this.type = type;
        this.date = date;
        if (type == ColumnType.STRING) {
            dictionary = StringDictionary.builder();
        }
    }

    int size() {
        return size;
    }

    /** Appends the rows of {@code values} in {@code rows}, or all of them when {@code rows} is null. */
    void append(ColumnValues values, RoaringBitmap rows) {
        int count = rows == null ? values.size() : rows.getCardinality();
        grow(size + count);
        IntIterator it = rows == null ? null : rows.getIntIterator();
        for (int i = 0; i < count; i++, size++) {
            int row = it == null ? i : it.next();
            if (values.isNull(row)) {
                nulls.set(size);
                ids[size] = -1;
                continue;
            }
            if (values instanceof ColumnValues.Longs l) {
                if (date) {
                    ids[size] = dictionary.add(ObjectColumns.isoDate(l.values()[row]));
                } else {
                    longs[size] = l.values()[row];
                }
            } else if (values instanceof ColumnValues.Doubles d) {
                doubles[size] = d.values()[row];
            } else if (values instanceof ColumnValues.Booleans b) {
                booleans[size] = b.values()[row];
            } else {
                ColumnValues.Strings s = (ColumnValues.Strings) values;
                ids[size] = dictionary.add(s.dictionary().get(s.ids()[row]));
            }
        }
    }

    private void grow(int capacity) {
        int current = type == ColumnType.BIGINT ? longs.length : type == ColumnType.DOUBLE ? doubles.length
                : type == ColumnType.BOOLEAN ? booleans.length : ids.length;
        if (capacity <= current) {
            return;
        }
        int next = Math.max(capacity, Math.min(Integer.MAX_VALUE - 8, current + (current >> 1) + 16));
        switch (type) {
            case BIGINT -> longs = Arrays.copyOf(longs, next);
            case DOUBLE -> doubles = Arrays.copyOf(doubles, next);
            case BOOLEAN -> booleans = Arrays.copyOf(booleans, next);
            case STRING -> ids = Arrays.copyOf(ids, next);
        }
    }

    /** Adds this column, trimmed to its size, to {@code table}. */
    void addTo(ColumnarTable.ColumnsBuilder table) {
        switch (type) {
            case BIGINT -> table.longs(name, Arrays.copyOf(longs, size), nulls);
            case DOUBLE -> table.doubles(name, Arrays.copyOf(doubles, size), nulls);
            case BOOLEAN -> table.booleans(name, Arrays.copyOf(booleans, size), nulls);
            case STRING -> table.strings(name, Arrays.copyOf(ids, size), dictionary.build().toArray());
        }
    }
}
