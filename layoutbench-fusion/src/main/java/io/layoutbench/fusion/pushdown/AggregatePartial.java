package io.layoutbench.fusion.pushdown;

import io.layoutbench.api.dataset.ColumnVector;

import java.math.BigInteger;

import org.roaringbitmap.IntIterator;
import org.roaringbitmap.RoaringBitmap;

/**
 * What a storage node returns for an aggregate pushed down to one column chunk, per group with GROUP BY: the count of
 * non-NULL selected values, their sum, minimum and maximum. Partials of all chunks merge into the aggregate. Integer
 * sums (BIGINT, and a DECIMAL's unscaled integers) are exact: a sum that leaves 64 bits carries into a
 * {@link BigInteger}, as DuckDB sums into 128 bits; double sums are added in row order within a chunk, chunk after
 * chunk.
 */
final class AggregatePartial {

    /** Bytes a partial takes on the wire: count, sum, minimum and maximum of 8 bytes each. */
    static final int WIRE_BYTES = 32;

    long count;
    long longSum;
    /** What the sum carried past 64 bits, or null. */
    BigInteger carry;
    double doubleSum;
    Comparable<Object> min;
    Comparable<Object> max;

    /** The partial of the rows of {@code values} in {@code rows}. */
    static AggregatePartial of(ColumnVector values, RoaringBitmap rows) {
        AggregatePartial partial = new AggregatePartial();
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); ) {
            partial.add(values, it.next());
        }
        return partial;
    }

    /**
     * One partial per group of the rows of {@code values} in {@code rows}: the i-th selected row is in group
     * {@code groups[i]}, of {@code groupCount}.
     */
    static AggregatePartial[] ofGroups(ColumnVector values, RoaringBitmap rows, int[] groups, int groupCount) {
        AggregatePartial[] partials = new AggregatePartial[groupCount];
        for (int g = 0; g < groupCount; g++) {
            partials[g] = new AggregatePartial();
        }
        int i = 0;
        for (IntIterator it = rows.getIntIterator(); it.hasNext(); i++) {
            partials[groups[i]].add(values, it.next());
        }
        return partials;
    }

    /** Bytes these partials take on the wire: 8 more for a sum that carried past 64 bits. */
    static long wireBytes(AggregatePartial... partials) {
        long bytes = 0;
        for (AggregatePartial partial : partials) {
            bytes += WIRE_BYTES + (partial.carry == null ? 0 : 8);
        }
        return bytes;
    }

    private void add(ColumnVector values, int row) {
        if (values.isNull(row)) {
            return;
        }
        count++;
        if (values instanceof ColumnVector.Longs l) {
            long v = l.values()[row];
            addExact(v);
            doubleSum += v;
            offer(v);
        } else if (values instanceof ColumnVector.Doubles d) {
            doubleSum += d.values()[row];
            offer(d.values()[row]);
        } else if (values instanceof ColumnVector.Booleans b) {
            offer(b.values()[row]);
        } else {
            ColumnVector.Strings s = (ColumnVector.Strings) values;
            offer(s.dictionary().get(s.ids()[row]));
        }
    }

    private void addExact(long v) {
        long sum = longSum + v;
        if (((longSum ^ sum) & (v ^ sum)) < 0) {   // overflow (Math.addExact's test): carry the 64-bit sum
            carry = (carry == null ? BigInteger.ZERO : carry).add(BigInteger.valueOf(longSum));
            sum = v;
        }
        longSum = sum;
    }

    /** The exact integer sum. */
    BigInteger exactSum() {
        BigInteger sum = BigInteger.valueOf(longSum);
        return carry == null ? sum : sum.add(carry);
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

    void merge(AggregatePartial other) {
        count += other.count;
        addExact(other.longSum);
        if (other.carry != null) {
            carry = (carry == null ? BigInteger.ZERO : carry).add(other.carry);
        }
        doubleSum += other.doubleSum;
        if (other.min != null) {
            offer(other.min);
            offer(other.max);
        }
    }
}
