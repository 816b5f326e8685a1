package io.layoutbench.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.ColumnVector;
import io.layoutbench.backend.memory.MemoryBackend;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;

import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DECIMALs stored in bytes (FIXED_LEN_BYTE_ARRAY and BINARY, big-endian two's complement, as parquet-java, Spark and
 * Arrow may write them) read as their unscaled integers when 18 digits hold them, statistics included; wider ones
 * are left unread rather than misread.
 */
class DecimalBytesTest {

    private static final long[] PRICES = {12345, -1, 0, -99999999, 99999999, 100};

    @Test
    void decimalsInBytesReadAsTheirUnscaledIntegers(@TempDir Path dir) throws Exception {
        MessageType schema = MessageTypeParser.parseMessageType("message prices {"
                + " required fixed_len_byte_array(5) fixed (DECIMAL(9,2));"
                + " optional binary bytes (DECIMAL(18,4));"
                + " required fixed_len_byte_array(16) wide (DECIMAL(38,2)); }");
        Path file = dir.resolve("decimals.parquet");
        SimpleGroupFactory rows = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = TestTables.groupWriter(file, schema).build()) {
            for (int i = 0; i < PRICES.length; i++) {
                Group row = rows.newGroup().append("fixed", Binary.fromConstantByteArray(bytes(PRICES[i], 5)));
                if (i != 2) {
                    row.append("bytes", Binary.fromConstantByteArray(BigInteger.valueOf(PRICES[i] * 1000)
                            .toByteArray()));
                }
                row.append("wide", Binary.fromConstantByteArray(bytes(PRICES[i], 16)));
                writer.write(row);
            }
        }
        MemoryBackend backend = new MemoryBackend();
        backend.put("decimals.parquet", file);
        ParquetFooter footer = ParquetObject.open(backend, "decimals.parquet").footer();
        assertThat(footer.column("fixed").type()).hasValue(ColumnType.BIGINT);
        assertThat(footer.column("bytes").type()).hasValue(ColumnType.BIGINT);
        assertThat(footer.column("wide").type()).isEmpty();   // 38 digits: a long cannot hold them

        ColumnVector.Longs fixed = (ColumnVector.Longs) decode(backend, footer, "fixed");
        assertThat(fixed.values()).containsExactly(PRICES);
        ColumnVector.Longs inBytes = (ColumnVector.Longs) decode(backend, footer, "bytes");
        assertThat(inBytes.isNull(2)).isTrue();
        assertThat(inBytes.values()).containsExactly(Arrays.stream(PRICES).map(p -> p == 0 ? 0 : p * 1000)
                .toArray());
        // Statistics in signed order, as the DECIMAL sort order is: min and max are the unscaled extremes.
        ColumnStats stats = footer.rowGroup(0).column("fixed").stats().orElseThrow();
        assertThat(stats.min()).isEqualTo(-99999999L);
        assertThat(stats.max()).isEqualTo(99999999L);
        assertThat(new BigDecimal(BigInteger.valueOf((Long) stats.max()), 2)).isEqualTo(new BigDecimal("999999.99"));
    }

    @Test
    void bigEndianBytesOfEveryWidth() {
        assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(new byte[] {(byte) 0xff}))).isEqualTo(-1L);
        assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(new byte[] {0x00, (byte) 0x80}))).isEqualTo(128L);
        assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(bytes(Long.MIN_VALUE, 8)))).isEqualTo(Long.MIN_VALUE);
        assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(new byte[0]))).isZero();
    }

    @Test
    void bytesThatOnlyExtendTheSignAreAccepted() {
        for (long value : new long[] {0, 1, -1, 127, -128, 12345, -99999999, Long.MAX_VALUE, Long.MIN_VALUE}) {
            for (int width : new int[] {9, 12, 16}) {
                assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(bytes(value, width))))
                        .as(value + " in " + width + " bytes").isEqualTo(value);
            }
        }
        // A slice: only the buffer's remaining bytes count.
        ByteBuffer slice = ByteBuffer.wrap(new byte[] {0x7f, (byte) 0xff, (byte) 0xff, 0x01, 0x02}, 1, 4);
        assertThat(ParquetFooter.bigEndianLong(slice)).isEqualTo(-0xfefeL);
    }

    @Test
    void bytesBeyondTheSignOfSixtyFourBitsAreRefused() {
        // 2^64, 2^63 (a 0x00 before a set top bit is a positive value past Long.MAX_VALUE), -2^63 - 1
        assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(BigInteger.ONE.shiftLeft(64).toByteArray())))
                .isNull();
        assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(BigInteger.ONE.shiftLeft(63).toByteArray())))
                .isNull();
        assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(BigInteger.valueOf(Long.MIN_VALUE)
                .subtract(BigInteger.ONE).toByteArray()))).isNull();
        byte[] padded = bytes(-1, 16);
        padded[0] = 0x00;   // a prefix byte that is not the sign of the rest
        assertThat(ParquetFooter.bigEndianLong(ByteBuffer.wrap(padded))).isNull();
    }

    private static ColumnVector decode(MemoryBackend backend, ParquetFooter footer, String column) {
        ByteBuffer chunk = backend.readRange("decimals.parquet", footer.rowGroup(0).column(column).byteRange());
        return ParquetObject.decodeChunk(footer, 0, column, chunk, CommonDecompressor.INSTANCE);
    }

    /** {@code value} as {@code width} big-endian two's complement bytes. */
    private static byte[] bytes(long value, int width) {
        byte[] out = new byte[width];
        for (int i = width - 1; i >= 0; i--) {
            out[i] = (byte) value;
            value >>= 8;
        }
        return out;
    }
}
