package io.layoutbench.fusion.pushdown;

import io.layoutbench.api.dataset.ColumnVector;

import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * What a storage node returns for an aggregate pushed down to one column chunk: the count of non-NULL selected values,
 * their sum, minimum and maximum. Partials of all chunks merge into the aggregate. Integer sums are exact
 * ({@link Math#addExact}); double sums are added in row order within a chunk, chunk after chunk.
 */
final class AggregatePartial {

    /** Bytes a partial takes on the wire: count, sum, minimum and maximum of 8 bytes each. */
    static final int WIRE_BYTES = 32;

    long count;
    long longSum;
    double doubleSum;
    Comparable<Object> min;
    Comparable<Object> max;

    /** The partial of the rows of {@code values} in {@code rows}. */
    static AggregatePartial of(ColumnVector values, RoaringBitmap rows, String where) {
        AggregatePartial partial = new AggregatePartial();
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
            int row = it.next();
            if (values.isNull(row)) {
                continue;
            }
            partial.count++;
            if (values instanceof ColumnVector.Longs l) {
                long v = l.values()[row];
                try {
                    partial.longSum = Math.addExact(partial.longSum, v);
                } catch (ArithmeticException e) {
                    throw new ArithmeticException("SUM overflows a 64-bit integer in " + where);
                }
                partial.doubleSum += v;
                partial.offer(v);
            } else if (values instanceof ColumnVector.Doubles d) {
                partial.doubleSum += d.values()[row];
                partial.offer(d.values()[row]);
            } else if (values instanceof ColumnVector.Booleans b) {
                partial.offer(b.values()[row]);
            } else {
                ColumnVector.Strings s = (ColumnVector.Strings) values;
                partial.offer(s.dictionary().get(s.ids()[row]));
            }
        }
        return partial;
    }

    @SuppressWarnings("unchecked")
    private void offer(Object value) {
        Comparable<Object> v = (Comparable<Object>) value;
        if (min == null || v.compareTo(min) < 0) {
            min = v;
        }
        if (max == null || v.compareTo(max) > 0) {
            max = v;
        }
    }

    void merge(AggregatePartial other, String where) {
        count += other.count;
        try {
            longSum = Math.addExact(longSum, other.longSum);
        } catch (ArithmeticException e) {
            throw new ArithmeticException("SUM overflows a 64-bit integer in " + where);
        }
        doubleSum += other.doubleSum;
        if (other.min != null) {
            offer(other.min);
            offer(other.max);
        }
    }
}
