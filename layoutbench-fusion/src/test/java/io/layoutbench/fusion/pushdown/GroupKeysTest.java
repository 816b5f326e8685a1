package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.api.dataset.ColumnVectorBuilder;

import java.nio.ByteBuffer;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

class GroupKeysTest {

    @Test
    void selectedRowsBecomeDistinctValuesAndBitPackedIds() {
        ColumnVectorBuilder.Strings modes = ColumnVectorBuilder.strings(8);
        for (String mode : new String[] {"AIR", "RAIL", null, "AIR", "SHIP", null, "RAIL", "TRUCK"}) {
            if (mode == null) {
                modes.appendNull();
            } else {
                modes.append(mode);
            }
        }
        ColumnVector values = modes.build();
        RoaringBitmap rows = RoaringBitmap.bitmapOf(0, 1, 2, 3, 5, 6);   // not 4 (SHIP) nor 7 (TRUCK)
        ByteBuffer wire = GroupKeys.encode(values, rows, false);
        GroupKeys.Decoded keys = GroupKeys.decode("l_shipmode", wire);
        // AIR, RAIL, NULL in order of first appearance: a NULL is a key of its own.
        assertThat(keys.dictionary().size()).isEqualTo(3);
        assertThat(keys.dictionary().get(0)).isEqualTo("AIR");
        assertThat(keys.dictionary().get(1)).isEqualTo("RAIL");
        assertThat(keys.dictionary().isNull(2)).isTrue();
        assertThat(keys.ids()).containsExactly(0, 1, 2, 0, 2, 1);
        // 9-byte header, 6 ids of 2 bits in 2 bytes, then the three values as a projection encodes them.
        assertThat(wire.remaining()).isEqualTo(9 + 2 + ProjectedValues.encode(values,
                RoaringBitmap.bitmapOf(0, 1, 2), false).remaining());
    }

    @Test
    void idsRoundTripAtEveryWidth() {
        for (int groups : new int[] {1, 2, 3, 7, 8, 255, 256, 70_000, Integer.MAX_VALUE}) {
            int[] ids = IntStream.range(0, 1000).map(i -> (int) ((i * 2_654_435_761L) % groups)).toArray();
            ByteBuffer wire = GroupKeys.packIds(ids, groups);
            assertThat(wire.remaining()).as("%d groups", groups)
                    .isEqualTo(GroupKeys.packedIdBytes(ids.length, groups))
                    .isEqualTo(9 + (1000 * GroupKeys.bitsFor(groups) + 7) / 8);
            assertThat(GroupKeys.unpackIds(wire)).as("%d groups", groups).containsExactly(ids);
        }
        assertThat(GroupKeys.bitsFor(1)).isZero();
        assertThat(GroupKeys.bitsFor(7)).isEqualTo(3);
        assertThat(GroupKeys.bitsFor(8)).isEqualTo(3);
        assertThat(GroupKeys.bitsFor(9)).isEqualTo(4);
    }
}
