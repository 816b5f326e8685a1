package io.layoutbench.spark;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PartWriter;
import io.layoutbench.api.layout.SupportsDistributedWrites;
import io.layoutbench.api.layout.WriteJob;
import io.layoutbench.api.layout.WrittenPart;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;
import org.apache.spark.sql.connector.write.WriterCommitMessage;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/** A task's partition written as one part of the job: rows become samples, added in order. */
final class LayoutbenchDataWriter implements DataWriter<InternalRow> {

    private final ObjectBackend backend;
    private final PartWriter part;
    private final MetadataSchema metadata;
    private final StructField[] fields;
    private final int[] metadataColumns;
    private final int[] payloadColumns;

    private LayoutbenchDataWriter(ObjectBackend backend, PartWriter part, MetadataSchema metadata,
            StructType schema) {
        this.backend = backend;
        this.part = part;
        this.metadata = metadata;
        this.fields = schema.fields();
        this.metadataColumns = new int[metadata.size()];
        for (int i = 0; i < metadata.size(); i++) {
            metadataColumns[i] = schema.fieldIndex(metadata.columns().get(i).name());
        }
        this.payloadColumns = metadata.payloadFields().stream().mapToInt(schema::fieldIndex).toArray();
    }

    @Override
    public void write(InternalRow row) {
        List<Object> values = new ArrayList<>(metadataColumns.length);
        for (int column : metadataColumns) {
            values.add(value(row, column, fields[column]));
        }
        Map<String, Blob> payload = new LinkedHashMap<>();
        for (int f = 0; f < payloadColumns.length; f++) {
            if (!row.isNullAt(payloadColumns[f])) {
                byte[] bytes = row.getBinary(payloadColumns[f]);
                payload.put(metadata.payloadFields().get(f), Blob.of(ByteBuffer.wrap(bytes)));
            }
        }
        part.add(new Sample(new MetadataRow(metadata, values), payload));
    }

    /** The value of a metadata column as the predicate language's type (widened: int to BIGINT, float to DOUBLE). */
    private static Object value(InternalRow row, int column, StructField field) {
        DataType type = field.dataType();
        if (row.isNullAt(column)) {
            return null;
        } else if (type.equals(DataTypes.StringType)) {
            return row.getUTF8String(column).toString();
        } else if (type.equals(DataTypes.LongType)) {
            return row.getLong(column);
        } else if (type.equals(DataTypes.IntegerType)) {
            return (long) row.getInt(column);
        } else if (type.equals(DataTypes.ShortType)) {
            return (long) row.getShort(column);
        } else if (type.equals(DataTypes.ByteType)) {
            return (long) row.getByte(column);
        } else if (type.equals(DataTypes.DoubleType)) {
            return row.getDouble(column);
        } else if (type.equals(DataTypes.FloatType)) {
            return (double) row.getFloat(column);
        } else if (type.equals(DataTypes.BooleanType)) {
            return row.getBoolean(column);
        }
        throw new IllegalStateException("Column '" + field.name() + "' has type " + type.simpleString()
                + ", which SparkSchemas refuses");
    }

    @Override
    public WriterCommitMessage commit() {
        return new Committed(part.commit());
    }

    @Override
    public void abort() {
        part.close();   // deletes what this attempt wrote
    }

    @Override
    public void close() {
        try (ObjectBackend b = backend) {
            part.close();
        }
    }

    /** The message a task sends the driver: the part it committed. */
    record Committed(WrittenPart part) implements WriterCommitMessage {
    }

    /** Opens a part writer for each task, named by its partition and task id (unique per attempt). */
    record Factory(SourceOptions options, WriteJob job, StructType schema) implements DataWriterFactory {

        @Override
        public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
            ObjectBackend backend = options.openBackend();
            PartWriter part = null;
            try {
                part = ((SupportsDistributedWrites) options.layoutOf()).openPart(backend, job, partitionId,
                        "t" + taskId);
                return new LayoutbenchDataWriter(backend, part, job.schema(), schema);
            } catch (RuntimeException e) {
                try (ObjectBackend b = backend; PartWriter p = part) {
                    throw e;
                }
            }
        }
    }
}
