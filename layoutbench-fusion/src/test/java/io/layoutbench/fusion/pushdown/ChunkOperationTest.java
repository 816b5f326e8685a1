package io.layoutbench.fusion.pushdown;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVectorBuilder;

import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Arrays;

import org.junit.jupiter.api.Test;
import org.roaringbitmap.RoaringBitmap;

/** The wire forms between coordinator and nodes: operations, replies and partials read back as written. */
class ChunkOperationTest {

    @Test
    void everyKindOfOperationReadsBackAsWritten() {
        ByteBuffer rows = bitmap(RoaringBitmap.bitmapOf(1, 5, 70_000));
        ByteBuffer ids = GroupKeys.packIds(new int[] {0, 2, 1}, 3);
        ChunkOperation[] operations = {
            ChunkOperation.filter("q1", "tpch/lineitem.parquet", "g7", 2, "l_quantity", "l_quantity < 2", true),
            ChunkOperation.select(ChunkOperation.Kind.PROJECT, "q1", "k", "g", 0, "\"order\"", rows, false),
            ChunkOperation.select(ChunkOperation.Kind.GROUP_KEYS, "q1", "k", "g", 0, "l_returnflag", rows, true),
            ChunkOperation.aggregate("q1", "ключ", "g", 4, "l_tax", rows, ids, 3),
        };
        for (ChunkOperation operation : operations) {
            ChunkOperation read = ChunkOperation.decode(operation.encode());
            assertThat(read).usingRecursiveComparison().isEqualTo(operation);
            assertThat(read.requestBytes()).isEqualTo(operation.requestBytes());
        }
    }

    @Test
    void malformedOperationsFailSayingWhat() {
        byte[] bytes = ChunkOperation.filter("q", "k", "g", 0, "c", "c < 1", false).encode();
        assertThatThrownBy(() -> ChunkOperation.decode(Arrays.copyOf(bytes, bytes.length - 3)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cut short");
        byte[] version = bytes.clone();
        version[0] = 9;
        assertThatThrownBy(() -> ChunkOperation.decode(version)).hasMessageContaining("version 9");
        assertThatThrownBy(() -> ChunkOperation.decode(Arrays.copyOf(bytes, bytes.length + 1)))
                .hasMessageContaining("after its end");
        assertThatThrownBy(() -> ChunkOperation.filter("q", "k", "g", 0, "c", "", false))
                .hasMessageContaining("needs a predicate");
    }

    @Test
    void aReplyReadsBackAsWrittenWithTheNodeTheClientReached() {
        NodeReply reply = new NodeReply(-1, ByteBuffer.wrap(new byte[] {1, 2, 3}), 1234, 56, true);
        NodeReply read = NodeReply.decode(4, ByteBuffer.wrap(reply.encode()).asReadOnlyBuffer());
        assertThat(read.node()).isEqualTo(4);
        assertThat(read.workNanos()).isEqualTo(1234);
        assertThat(read.fromOtherNodes()).isEqualTo(56);
        assertThat(read.degraded()).isTrue();
        assertThat(read.body().hasArray()).as("decodable from an array").isTrue();
        assertThat(read.body()).isEqualTo(ByteBuffer.wrap(new byte[] {1, 2, 3}));
        assertThatThrownBy(() -> NodeReply.decode(0, ByteBuffer.allocate(5))).hasMessageContaining("17");
    }

    @Test
    void partialsOfEveryTypeReadBackAsWritten() {
        ColumnVectorBuilder.Longs longs = (ColumnVectorBuilder.Longs) ColumnVectorBuilder.of(ColumnType.BIGINT, 3);
        longs.append(Long.MAX_VALUE);
        longs.append(Long.MAX_VALUE);   // carries past 64 bits
        longs.appendNull();
        ColumnVectorBuilder.Strings strings = (ColumnVectorBuilder.Strings) ColumnVectorBuilder.of(ColumnType.STRING,
                2);
        strings.append("ünïcode");
        strings.append("a");
        RoaringBitmap all = RoaringBitmap.bitmapOf(0, 1);
        AggregatePartial[] written = {
            AggregatePartial.of(longs.build(), RoaringBitmap.bitmapOf(0, 1, 2)),
            AggregatePartial.of(strings.build(), all),
            new AggregatePartial(),   // a group without a value
        };
        AggregatePartial[] read = AggregatePartial.decode(AggregatePartial.encode(written));
        assertThat(read).hasSize(3);
        assertThat(read[0].exactSum()).isEqualTo(BigInteger.valueOf(Long.MAX_VALUE).shiftLeft(1));
        assertThat(read[0].count).isEqualTo(2);
        assertThat(read[0].max).isEqualTo(Long.MAX_VALUE);
        assertThat(read[1].min).isEqualTo("a");
        assertThat(read[1].max).isEqualTo("ünïcode");
        assertThat(read[2].count).isZero();
        assertThat(read[2].min).isNull();
        ByteBuffer cut = AggregatePartial.encode(written);
        cut.limit(cut.limit() - 2);
        assertThatThrownBy(() -> AggregatePartial.decode(cut)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("cut short");
    }

    private static ByteBuffer bitmap(RoaringBitmap rows) {
        ByteBuffer out = ByteBuffer.allocate(rows.serializedSizeInBytes());
        rows.serialize(out);
        return out.flip();
    }
}
