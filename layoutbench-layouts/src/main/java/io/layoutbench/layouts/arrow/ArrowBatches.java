package io.layoutbench.layouts.arrow;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.SampleStream;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A query's samples as Apache Arrow record batches: the metadata columns plus a binary column of sample bytes, at
 * most {@code batchSize} rows each, for loaders that work in columnar batches. One {@link VectorSchemaRoot} is
 * refilled for every batch (the usual Arrow reader contract): use a batch before asking for the next. Pulling
 * batches pulls samples, so the stream's backpressure bounds memory as before. Not thread-safe.
 *
 * <pre>{@code
 * try (BufferAllocator allocator = new RootAllocator();
 *      ArrowBatches batches = ArrowBatches.of(dataset.query(query, options), dataset.schema(), allocator, 256)) {
 *     while (batches.hasNext()) {
 *         VectorSchemaRoot batch = batches.next();
 *         VarBinaryVector images = (VarBinaryVector) batch.getVector(ArrowBatches.DATA_COLUMN);
 *         train(batch.getRowCount(), images);
 *     }
 * }
 * }</pre>
 */
public final class ArrowBatches implements Iterator<VectorSchemaRoot>, AutoCloseable {

    /** Name of the binary column holding each sample's bytes (as the paper's L3 names it). */
    public static final String DATA_COLUMN = "image_bytes";

    private final SampleStream samples;
    private final MetadataSchema schema;
    private final int batchSize;
    private final VectorSchemaRoot root;
    private final List<FieldVector> metadataVectors;
    private final VarBinaryVector data;

    private ArrowBatches(SampleStream samples, MetadataSchema schema, BufferAllocator allocator, int batchSize) {
        this.samples = requireNonNull(samples, "samples is null");
        this.schema = requireNonNull(schema, "schema is null");
        requireNonNull(allocator, "allocator is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be >= 1, got " + batchSize);
        }
        this.batchSize = batchSize;
        this.root = VectorSchemaRoot.create(arrowSchema(schema), allocator);
        this.metadataVectors = new ArrayList<>(root.getFieldVectors().subList(0, schema.size()));
        this.data = (VarBinaryVector) root.getVector(DATA_COLUMN);
    }

    /** Batches of {@code samples}, whose metadata has {@code schema}. Closing the batches closes the stream. */
    public static ArrowBatches of(SampleStream samples, MetadataSchema schema, BufferAllocator allocator,
            int batchSize) {
        return new ArrowBatches(samples, schema, allocator, batchSize);
    }

    /** The Arrow schema of the batches: one field per metadata column, then {@link #DATA_COLUMN}. */
    public static Schema arrowSchema(MetadataSchema schema) {
        return arrowSchema(schema, List.of(Sample.DATA));
    }

    /**
     * The Arrow schema of batches of samples with payload fields {@code payloadFields}: one field per metadata
     * column, then a binary column per payload field, named after it ({@link #DATA_COLUMN} for the one field
     * {@code data}), NULL where a sample lacks the field.
     */
    public static Schema arrowSchema(MetadataSchema schema, List<String> payloadFields) {
        List<Field> fields = new ArrayList<>();
        for (Column column : schema.columns()) {
            ArrowType type = switch (column.type()) {
                case STRING -> ArrowType.Utf8.INSTANCE;
                case BIGINT -> new ArrowType.Int(64, true);
                case DOUBLE -> new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE);
                case BOOLEAN -> ArrowType.Bool.INSTANCE;
            };
            fields.add(new Field(column.name(), FieldType.nullable(type), null));
        }
        for (String field : payloadFields) {
            String name = payloadColumn(payloadFields, field);
            // The one field of the paper's schema is in every sample; other fields may be missing from some.
            fields.add(new Field(name, name.equals(DATA_COLUMN) ? FieldType.notNullable(ArrowType.Binary.INSTANCE)
                    : FieldType.nullable(ArrowType.Binary.INSTANCE), null));
        }
        return new Schema(fields);
    }

    private static String payloadColumn(List<String> payloadFields, String field) {
        return payloadFields.size() == 1 && field.equals(Sample.DATA) ? DATA_COLUMN : field;
    }

    /**
     * An empty root of {@link #arrowSchema(MetadataSchema, List)}'s schema, for {@link #fill}: a loader refills one
     * root batch after batch. Close it when done.
     */
    public static VectorSchemaRoot newRoot(MetadataSchema schema, List<String> payloadFields,
            BufferAllocator allocator) {
        return VectorSchemaRoot.create(arrowSchema(schema, payloadFields), allocator);
    }

    /**
     * Refills {@code root} (made by {@link #newRoot}) with {@code samples}: their metadata, then each payload column
     * from the field of its name. A field stored lazily (a large one) is read whole here.
     *
     * <pre>{@code
     * try (VectorSchemaRoot root = ArrowBatches.newRoot(schema, List.of("jpg", "cls"), allocator)) {
     *     while (epoch.hasNext()) {
     *         ArrowBatches.fill(root, epoch.next());
     *         train(root);
     *     }
     * }
     * }</pre>
     */
    public static void fill(VectorSchemaRoot root, List<Sample> samples) {
        List<FieldVector> vectors = root.getFieldVectors();
        root.allocateNew();
        int metadataColumns = samples.isEmpty() ? 0 : samples.get(0).metadata().values().size();
        List<String> payloadFields = new ArrayList<>();
        for (FieldVector vector : vectors.subList(metadataColumns, vectors.size())) {
            payloadFields.add(vector.getName());
        }
        boolean single = payloadFields.size() == 1 && payloadFields.get(0).equals(DATA_COLUMN);
        for (int row = 0; row < samples.size(); row++) {
            Sample sample = samples.get(row);
            for (int c = 0; c < metadataColumns; c++) {
                set(vectors.get(c), row, sample.metadata().get(c));
            }
            for (int f = 0; f < payloadFields.size(); f++) {
                VarBinaryVector vector = (VarBinaryVector) vectors.get(metadataColumns + f);
                java.util.Optional<io.layoutbench.api.dataset.Blob> blob =
                        sample.findField(single ? Sample.DATA : payloadFields.get(f));
                if (blob.isEmpty()) {
                    vector.setNull(row);
                } else {
                    ByteBuffer bytes = blob.get().readAll();
                    vector.setSafe(row, bytes, bytes.position(), bytes.remaining());
                }
            }
        }
        root.setRowCount(samples.size());
    }

    /** The stream's statistics so far. */
    public io.layoutbench.api.layout.RetrievalStats stats() {
        return samples.stats();
    }

    @Override
    public boolean hasNext() {
        return samples.hasNext();
    }

    /** Fills the shared root with the next batch and returns it. */
    @Override
    public VectorSchemaRoot next() {
        if (!samples.hasNext()) {
            throw new NoSuchElementException("No more samples");
        }
        root.allocateNew();
        int row = 0;
        while (row < batchSize && samples.hasNext()) {
            Sample sample = samples.next();
            MetadataRow metadata = sample.metadata();
            for (int c = 0; c < metadataVectors.size(); c++) {
                set(metadataVectors.get(c), row, metadata.get(c));
            }
            ByteBuffer bytes = sample.data();
            data.setSafe(row, bytes, bytes.position(), bytes.remaining());
            row++;
        }
        root.setRowCount(row);
        return root;
    }

    private static void set(FieldVector vector, int row, Object value) {
        if (value == null) {
            vector.setNull(row);
            return;
        }
        if (vector instanceof VarCharVector strings) {
            strings.setSafe(row, ((String) value).getBytes(StandardCharsets.UTF_8));
        } else if (vector instanceof BigIntVector longs) {
            longs.setSafe(row, (Long) value);
        } else if (vector instanceof Float8Vector doubles) {
            doubles.setSafe(row, (Double) value);
        } else if (vector instanceof BitVector bits) {
            bits.setSafe(row, (Boolean) value ? 1 : 0);
        } else {
            throw new IllegalStateException("No Arrow mapping for vector " + vector.getField());
        }
    }

    @Override
    public void close() {
        try {
            samples.close();
        } finally {
            root.close();
        }
    }
}
