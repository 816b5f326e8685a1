package io.layoutbench.api.dataset;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlobTest {

    @TempDir
    Path dir;

    @Test
    void aMemoryBlobReadsSlicesWithoutCopying() {
        byte[] bytes = "0123456789".getBytes();
        Blob blob = Blob.of(ByteBuffer.wrap(bytes, 2, 6));
        assertThat(blob.size()).isEqualTo(6);
        assertThat(blob.inMemory()).isTrue();
        assertThat(new String(Blob.of(blob.read(1, 3)).toByteArray())).isEqualTo("345");
        assertThat(blob.read(6, 0).remaining()).isZero();
        assertThat(blob.read(0, 1).isReadOnly()).isTrue();
        assertThatThrownBy(() -> blob.read(4, 3)).isInstanceOf(IndexOutOfBoundsException.class)
                .hasMessageContaining("[4, 7)").hasMessageContaining("6 bytes");
    }

    @Test
    void aFileBlobIsReadWhenAskedAndStreamsInChunks() throws IOException {
        byte[] bytes = new byte[3 * Blob.STREAM_CHUNK_BYTES + 17];
        new Random(1).nextBytes(bytes);
        Path file = Files.write(dir.resolve("clip.wav"), bytes);
        Blob blob = Blob.ofFile(file);
        assertThat(blob.inMemory()).isFalse();
        assertThat(blob.size()).isEqualTo(bytes.length);
        assertThat(Blob.of(blob.read(1_000_000, 10)).toByteArray())
                .isEqualTo(Arrays.copyOfRange(bytes, 1_000_000, 1_000_010));
        try (InputStream in = blob.openStream()) {
            assertThat(in.read()).isEqualTo(bytes[0] & 0xFF);
            assertThat(in.skip(Blob.STREAM_CHUNK_BYTES + 5L)).isEqualTo(Blob.STREAM_CHUNK_BYTES + 5L);
            byte[] rest = in.readAllBytes();
            assertThat(rest).isEqualTo(Arrays.copyOfRange(bytes, Blob.STREAM_CHUNK_BYTES + 6, bytes.length));
        }
        assertThat(blob.toString()).contains("clip.wav");
    }

    @Test
    void aBlobLargerThanAnArrayIsReadInParts() throws IOException {
        Path file = dir.resolve("huge.bin");
        try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
            sparse.setLength(3L << 30);   // 3 GiB, sparse: nothing is written
            sparse.seek((3L << 30) - 1);
            sparse.write(7);
        }
        Blob blob = Blob.ofFile(file);
        assertThat(blob.size()).isEqualTo(3L << 30);
        assertThat(blob.read((3L << 30) - 1, 1).get()).isEqualTo((byte) 7);
        assertThatThrownBy(blob::readAll).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("read it in parts");
    }

    @Test
    void aSampleNamesItsFieldsAndRefusesBadNames() {
        MetadataSchema schema = new MetadataSchema(List.of(new Column("speaker", ColumnType.BIGINT)))
                .withPayloadFields(List.of("wav", "txt"));
        MetadataRow row = MetadataRow.of(schema, Map.of("speaker", 103));
        Sample sample = new Sample(row, Map.of("wav", Blob.of(new byte[10]), "txt", Blob.of(new byte[3])));
        assertThat(sample.size()).isEqualTo(13);
        assertThat(sample.field("txt").size()).isEqualTo(3);
        assertThatThrownBy(() -> sample.field("mp4")).hasMessageContaining("no payload field 'mp4'");
        assertThatThrownBy(sample::data).isInstanceOf(IllegalStateException.class).hasMessageContaining("field(name)");
        assertThatThrownBy(() -> new Sample(row, Map.of("../x", Blob.of(new byte[1]))))
                .hasMessageContaining("Invalid payload field name '../x'");
        assertThatThrownBy(() -> schema.withPayloadFields(List.of("wav", "wav"))).hasMessageContaining("twice");
        assertThat(new Sample(row, ByteBuffer.wrap(new byte[4])).fields()).containsOnlyKeys(Sample.DATA);
    }
}
