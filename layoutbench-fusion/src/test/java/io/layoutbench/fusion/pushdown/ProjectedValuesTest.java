package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.StringDictionary;

import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class ProjectedValuesTest {

    @Test
    void selectedRowsRoundTripWithNullsForEveryType() {
        long[] nulls = {0b1010};
        List<ColumnVector> columns = List.of(
                new ColumnVector.Longs(new long[] {1, 0, 3, 0, 5}, nulls),
                new ColumnVector.Doubles(new double[] {1.5, 0, 3.5, 0, 5.5}, nulls),
                new ColumnVector.Booleans(new boolean[] {true, false, false, false, true}, nulls),
                new ColumnVector.Strings(new int[] {0, -1, 1, -1, 0}, StringDictionary.of("naïve", "")));
        RoaringBitmap rows = RoaringBitmap.bitmapOf(1, 2, 4);
        for (ColumnVector column : columns) {
            for (boolean narrow : new boolean[] {false, true}) {
                if (narrow && !(column instanceof ColumnVector.Longs)) {
                    continue;
                }
                ColumnVector decoded = ProjectedValues.decode("c", ProjectedValues.encode(column, rows, narrow));
                assertThat(values(decoded)).as("%s, narrow %s", column.type(), narrow)
                        .isEqualTo(values(column, 1, 2, 4));
            }
        }
    }

    private static List<Object> values(ColumnVector column, int... rows) {
        List<Object> values = new ArrayList<>();
        if (rows.length == 0) {
            for (int row = 0; row < column.size(); row++) {
                values.add(column.get(row));
            }
        }
        for (int row : rows) {
            values.add(column.get(row));
        }
        return values;
    }
}
