package io.layoutbench.api.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.predicate.ColumnarTable;

import java.util.List;

import org.junit.jupiter.api.Test;

class ColumnVectorTest {

    @Test
    void buildersAppendValuesAndNullsOfTheirType() {
        ColumnVectorBuilder.Longs longs = ColumnVectorBuilder.longs(0);
        ColumnVectorBuilder.Strings strings = ColumnVectorBuilder.strings(0);
        for (int i = 0; i < 1_000; i++) {
            if (i % 97 == 0) {
                longs.appendNull();
                strings.appendNull();
            } else {
                longs.append(i);
                strings.append("s" + (i % 10));
            }
        }
        ColumnVector.Longs l = longs.build();
        ColumnVector.Strings s = strings.build();
        assertThat(l.size()).isEqualTo(1_000);
        assertThat(l.nulls()).hasSize(ColumnVector.bitmapWords(1_000));
        assertThat(l.isNull(97)).isTrue();
        assertThat(l.get(98)).isEqualTo(98L);
        assertThat(l.hasNulls()).isTrue();
        assertThat(s.get(0)).isNull();
        assertThat(s.get(98)).isEqualTo("s8");
        assertThat(s.dictionary().size()).isEqualTo(10);
        assertThat(s.hasNulls()).isTrue();

        ColumnVector.Doubles d = ColumnVectorBuilder.doubles(4).append(1.5).appendObject(null).build();
        assertThat(d.get(0)).isEqualTo(1.5);
        assertThat(d.isNull(1)).isTrue();
        ColumnVector.Booleans b = ColumnVectorBuilder.booleans(4).append(true).append(false).build();
        assertThat(b.hasNulls()).isFalse();
        assertThat(b.nulls()).isSameAs(ColumnVector.NO_NULLS);
        assertThatThrownBy(() -> ColumnVectorBuilder.booleans(1).appendObject("yes"))
                .isInstanceOf(ClassCastException.class);
    }

    @Test
    void buildCopiesAndCopiesRowsFromOtherVectors() {
        ColumnVectorBuilder.Strings builder = ColumnVectorBuilder.strings(2);
        builder.append("tench");
        ColumnVector.Strings first = builder.build();
        builder.append("goldfish");
        assertThat(first.size()).isEqualTo(1);
        assertThat(builder.build().size()).isEqualTo(2);

        ColumnVector source = new ColumnVector.Strings(new int[] {1, -1, 0}, StringDictionary.of("a", "b"));
        ColumnVectorBuilder copy = ColumnVectorBuilder.of(ColumnType.STRING, 0);
        for (int row = 2; row >= 0; row--) {
            copy.append(source, row);
        }
        ColumnVector copied = copy.build();
        assertThat(copied.get(0)).isEqualTo("a");
        assertThat(copied.isNull(1)).isTrue();
        assertThat(copied.get(2)).isEqualTo("b");
        assertThatThrownBy(() -> ColumnVectorBuilder.longs(1).append(source, 0))
                .hasMessage("Cannot append a STRING value to a BIGINT column");
    }

    @Test
    void recordsValidateTheirArrays() {
        assertThat(new ColumnVector.Longs(new long[3], new long[1]).nulls())
                .as("a bitmap without a set bit means no NULLs").isSameAs(ColumnVector.NO_NULLS);
        assertThatThrownBy(() -> new ColumnVector.Longs(new long[65], new long[1]))
                .hasMessage("A null bitmap of 65 rows has 2 words, not 1");
        assertThatThrownBy(() -> new ColumnVector.Strings(new int[] {0, 2}, StringDictionary.of("a", "b")))
                .hasMessage("Row 1 has dictionary id 2 but the dictionary has 2 values");
        assertThatThrownBy(() -> new ColumnVector.Longs(new long[2]).isNull(2))
                .isInstanceOf(IndexOutOfBoundsException.class);
        long[] bits = {0b100};
        assertThat(new ColumnVector.Doubles(new double[3], bits).get(2)).isNull();
        assertThat(ColumnVector.isNull(bits, 1)).isFalse();
        assertThat(ColumnVector.isNull(ColumnVector.NO_NULLS, 1)).isFalse();
    }

    @Test
    void tablesHoldTheVectorsTheyAreGiven() {
        ColumnVector.Strings names = new ColumnVector.Strings(new int[] {0, 1}, StringDictionary.of("a.jpg", "b.jpg"));
        ColumnVector.Strings labels = new ColumnVector.Strings(new int[] {0, 0}, StringDictionary.of("tench"));
        ColumnVector.Longs sizes = new ColumnVector.Longs(new long[] {10, 20});
        ColumnVector.Longs widths = new ColumnVector.Longs(new long[] {5, 6}, new long[] {0b10});
        ColumnVector.Longs heights = new ColumnVector.Longs(new long[] {4, 3});
        ColumnarTable table = ColumnarTable.fromColumns(MetadataSchema.imageNet(),
                List.of(names, labels, sizes, widths, heights));
        assertThat(table.column(0)).isSameAs(names);
        assertThat(table.getString(1, 1)).isEqualTo("tench");
        assertThat(table.isNull(3, 1)).isTrue();
        assertThat(table.estimatedSizeBytes()).isEqualTo(names.estimatedBytes() + labels.estimatedBytes()
                + sizes.estimatedBytes() + widths.estimatedBytes() + heights.estimatedBytes());
        assertThatThrownBy(() -> ColumnarTable.fromColumns(MetadataSchema.imageNet(),
                List.of(names, labels, sizes, widths, names)))
                .hasMessage("Column 'height' is BIGINT but its values are STRING");
        assertThatThrownBy(() -> ColumnarTable.fromColumns(MetadataSchema.imageNet(),
                List.of(names, labels, sizes, widths, new ColumnVector.Longs(new long[3]))))
                .hasMessage("Column 'height' has 3 values but column 'filename' has 2");
        assertThatThrownBy(() -> ColumnarTable.fromColumns(MetadataSchema.imageNet(), List.of(names)))
                .hasMessageStartingWith("Expected 5 columns for [filename,");
    }
}
