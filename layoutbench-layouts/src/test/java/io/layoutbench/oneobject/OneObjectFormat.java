package io.layoutbench.oneobject;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.PlannedRequest;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.predicate.ColumnarTable;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The one object's layout, shared by the writer, the datasets and the model: samples back to back, then per
 * sample its metadata values, size and checksum, then the block's length (8 bytes) and a magic (4 bytes).
 */
final class OneObjectFormat {

    static final String OBJECT = "dataset.bin";
    static final int TRAILER = 12;
    static final int MAGIC = 0x4c42314f;   // "LB1O"

    private OneObjectFormat() {
    }

    /** One sample's entry in the metadata block. */
    static byte[] entry(MetadataRow row, long size, int crc32c) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            for (int c = 0; c < row.schema().size(); c++) {
                Object value = row.get(c);
                out.writeBoolean(value == null);
                if (value == null) {
                    continue;
                }
                switch (row.schema().columns().get(c).type()) {
                    case STRING -> out.writeUTF((String) value);
                    case BIGINT -> out.writeLong((Long) value);
                    case DOUBLE -> out.writeDouble((Double) value);
                    case BOOLEAN -> out.writeBoolean((Boolean) value);
                }
            }
            out.writeLong(size);
            out.writeInt(crc32c);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** The trailer after a metadata block of {@code length} bytes. */
    static byte[] trailer(long length) {
        return ByteBuffer.allocate(TRAILER).putLong(length).putInt(MAGIC).array();
    }

    /** The reads a cold client makes for the metadata: the trailer, then the block it gives the length of. */
    static List<PlannedRequest> metadataReads(String key, long objectSize, long blockLength) {
        return List.of(new PlannedRequest(RequestKind.RANGE_GET, key, ByteRange.of(objectSize - TRAILER, TRAILER)),
                new PlannedRequest(RequestKind.RANGE_GET, key,
                        ByteRange.of(objectSize - TRAILER - blockLength, blockLength)));
    }

    /** The block's length from the trailer; corrupt when the magic is wrong or the length impossible. */
    static long blockLength(ByteBuffer trailer, String key, long objectSize) {
        long length = trailer.getLong(trailer.position());
        int magic = trailer.getInt(trailer.position() + 8);
        if (magic != MAGIC || length < 0 || length > objectSize - TRAILER) {
            throw new CorruptDataException("Object " + key + " does not end in a one-object trailer (magic "
                    + Integer.toHexString(magic) + ", block length " + length + ")");
        }
        return length;
    }

    /** The decoded metadata block. */
    record Block(ColumnarTable table, long[] offsets, long[] sizes, int[] crcs, long payloadEnd) {
    }

    /** Decodes {@code rows} entries of {@code schema} from {@code block}. */
    static Block decode(ByteBuffer block, MetadataSchema schema, int rows, String key) {
        byte[] bytes = new byte[block.remaining()];
        block.duplicate().get(bytes);
        ColumnarTable.Builder table = ColumnarTable.builder(schema, rows);
        long[] offsets = new long[rows];
        long[] sizes = new long[rows];
        int[] crcs = new int[rows];
        long offset = 0;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes))) {
            for (int r = 0; r < rows; r++) {
                List<Object> values = new ArrayList<>(schema.size());
                for (Column column : schema.columns()) {
                    values.add(in.readBoolean() ? null : switch (column.type()) {
                        case STRING -> in.readUTF();
                        case BIGINT -> in.readLong();
                        case DOUBLE -> in.readDouble();
                        case BOOLEAN -> in.readBoolean();
                    });
                }
                table.add(new MetadataRow(schema, values));
                offsets[r] = offset;
                sizes[r] = in.readLong();
                crcs[r] = in.readInt();
                offset += sizes[r];
            }
            if (in.available() != 0) {
                throw new CorruptDataException("The metadata block of " + key + " has " + in.available()
                        + " bytes after its " + rows + " entries");
            }
        } catch (IOException | IllegalArgumentException e) {
            throw new CorruptDataException("Cannot decode the metadata block of " + key + ": " + e.getMessage(), e);
        }
        return new Block(table.build(), offsets, sizes, crcs, offset);
    }
}
