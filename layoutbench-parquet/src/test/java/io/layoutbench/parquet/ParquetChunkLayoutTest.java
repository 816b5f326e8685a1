package io.layoutbench.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.backend.memory.MemoryBackend;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.SimpleGroupFactory;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParquetChunkLayoutTest {

    @TempDir
    Path dir;

    @Test
    void chunksAreTheFootersColumnChunks() {
        byte[] table = TestTables.read(TestTables.writeL3(dir, 2000, ParquetWriteOptions.defaults()
                .withRowGroupSize(64 << 10)));

        ParquetChunkLayout layout = read("t.parquet", table);

        ParquetFooter footer;
        try (MemoryBackend backend = new MemoryBackend()) {
            backend.put("t.parquet", table);
            footer = ParquetObject.open(backend, "t.parquet").footer();
        }
        assertThat(footer.rowGroups()).hasSizeGreaterThan(1);
        assertThat(layout.footerRange()).isEqualTo(footer.footerRange());
        assertThat(layout.objectLength()).isEqualTo(table.length);
        assertThat(layout.chunks()).map(ParquetChunkLayout.Chunk::byteRange).isEqualTo(footer.rowGroups().stream()
                .flatMap(g -> g.columns().stream()).map(ColumnChunkInfo::byteRange).toList());
        ParquetChunkLayout.Chunk first = layout.chunks().get(0);
        assertThat(first.label()).isEqualTo("row group 0, column " + footer.columns().get(0).name());
    }

    @Test
    void readsNestedSchemasThatTheTableReaderRefuses() throws IOException {
        MessageType schema = MessageTypeParser.parseMessageType("message doc { required int64 id; "
                + "optional group links { repeated int64 forward; repeated int64 backward; } }");
        Path file = dir.resolve("nested.parquet");
        SimpleGroupFactory rows = new SimpleGroupFactory(schema);
        try (ParquetWriter<Group> writer = TestTables.groupWriter(file, schema).withRowGroupSize(4 << 10).build()) {
            for (long id = 0; id < 3000; id++) {
                Group row = rows.newGroup().append("id", id);
                Group links = row.addGroup("links");
                links.append("forward", id + 1).append("forward", id + 2).append("backward", id - 1);
                writer.write(row);
            }
        }
        byte[] bytes = TestTables.read(file);

        ParquetChunkLayout layout = read("nested.parquet", bytes);

        assertThat(layout.chunks()).hasSizeGreaterThan(3)
                .allSatisfy(chunk -> assertThat(chunk.byteRange().offset()).isGreaterThanOrEqualTo(4))
                .allSatisfy(chunk -> assertThat(chunk.byteRange().end())
                        .isLessThanOrEqualTo(layout.footerRange().offset()));
        assertThat(layout.chunks()).map(ParquetChunkLayout.Chunk::path).contains("id", "links.forward",
                "links.backward");
        try (MemoryBackend backend = new MemoryBackend()) {
            backend.put("nested.parquet", bytes);
            assertThatThrownBy(() -> ParquetObject.open(backend, "nested.parquet"))
                    .isInstanceOf(ParquetFormatException.class).hasMessageContaining("nested");
        }
    }

    @Test
    void namesWhyAnObjectIsNotParquet() {
        assertThatThrownBy(() -> read("tiny.bin", new byte[] {1, 2, 3}))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("tiny.bin")
                .hasMessageContaining("3 bytes");
        byte[] text = "PAR1 and then some text that is not Parquet".getBytes(StandardCharsets.UTF_8);
        assertThatThrownBy(() -> read("text.txt", text))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("text.txt")
                .hasMessageContaining("expected PAR1");

        byte[] good = TestTables.read(TestTables.writeL1(dir, 100, ParquetWriteOptions.defaults()));
        byte[] badHead = good.clone();
        badHead[0] = 'X';
        assertThatThrownBy(() -> read("head.parquet", badHead))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("bad magic at offset 0");
        byte[] encrypted = good.clone();
        encrypted[encrypted.length - 1] = 'E';
        assertThatThrownBy(() -> read("secret.parquet", encrypted))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("encrypted");
        byte[] longFooter = good.clone();
        ByteBuffer.wrap(longFooter).order(ByteOrder.LITTLE_ENDIAN).putInt(good.length - 8, good.length);
        assertThatThrownBy(() -> read("long.parquet", longFooter))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("footer length " + good.length);
        byte[] garbled = good.clone();
        int footerLength = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN).getInt(good.length - 8);
        for (int i = good.length - 8 - footerLength; i < good.length - 8; i++) {
            garbled[i] = (byte) 0xff;
        }
        assertThatThrownBy(() -> read("garbled.parquet", garbled))
                .isInstanceOf(ParquetFormatException.class).hasMessageContaining("Cannot parse the footer");
    }

    private static ParquetChunkLayout read(String key, byte[] bytes) {
        return ParquetChunkLayout.read(key, bytes.length, range -> {
            if (!range.fitsIn(bytes.length)) {
                throw new UncheckedIOException(new IOException("read past the end: " + range));
            }
            return ByteBuffer.wrap(bytes, (int) range.offset(), (int) range.length()).slice();
        });
    }
}
