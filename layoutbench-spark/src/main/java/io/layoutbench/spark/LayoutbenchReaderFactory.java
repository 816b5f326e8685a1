package io.layoutbench.spark;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.PreparedQuery;
import io.layoutbench.api.layout.ResultRange;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.SupportsPreparedQueries;
import io.layoutbench.api.metrics.QueryMetrics;
import io.layoutbench.api.predicate.Query;
import java.nio.ByteBuffer;
import java.util.List;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;
import org.apache.spark.unsafe.types.UTF8String;

/** Opens the dataset in a task and reads its partition's samples as rows of the required columns. */
final class LayoutbenchReaderFactory implements PartitionReaderFactory {

    private final SourceOptions options;
    private final StructType required;
    private final String where;

    LayoutbenchReaderFactory(SourceOptions options, StructType required, String where) {
        this.options = options;
        this.required = required;
        this.where = where;
    }

    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
        LayoutbenchPartition part = (LayoutbenchPartition) partition;
        QueryMetrics metrics = new QueryMetrics();
        SourceOptions.Opened opened = options.open(metrics);
        try {
            List<String> payload = opened.dataset().schema().payloadFields();
            List<String> fields = LayoutbenchScan.fields(required, payload);
            PreparedQuery prepared = ((SupportsPreparedQueries) opened.dataset()).prepare(Query.parse(where),
                    LayoutbenchScan.queryOptions(options, fields));
            if (!prepared.resultId().equals(part.resultId())) {
                throw new IllegalStateException("The dataset at " + options.prefix() + " changed since the scan was "
                        + "planned: planned " + part.resultId() + ", found " + prepared.resultId());
            }
            SampleStream samples = prepared.read(List.of(new ResultRange(part.from(), part.to())));
            return new Reader(opened, samples, payload, metrics);
        } catch (RuntimeException e) {
            opened.close();
            throw e;
        }
    }

    /** Samples as rows. */
    private final class Reader implements PartitionReader<InternalRow> {
        private final SourceOptions.Opened opened;
        private final SampleStream samples;
        private final List<String> payload;
        private final QueryMetrics metrics;
        private InternalRow current;

        Reader(SourceOptions.Opened opened, SampleStream samples, List<String> payload, QueryMetrics metrics) {
            this.opened = opened;
            this.samples = samples;
            this.payload = payload;
            this.metrics = metrics;
        }

        @Override
        public CustomTaskMetric[] currentMetricsValues() {
            return ReadMetrics.of(metrics.snapshot());
        }

        @Override
        public boolean next() {
            if (!samples.hasNext()) {
                return false;
            }
            current = row(samples.next());
            return true;
        }

        private InternalRow row(Sample sample) {
            StructField[] fields = required.fields();
            Object[] values = new Object[fields.length];
            for (int i = 0; i < fields.length; i++) {
                String name = fields[i].name();
                if (payload.contains(name)) {
                    values[i] = sample.findField(name).map(Blob::readAll).map(Reader::bytes).orElse(null);
                } else {
                    Object value = sample.metadata().get(name);
                    values[i] = value instanceof String s ? UTF8String.fromString(s) : value;
                }
            }
            return new GenericInternalRow(values);
        }

        private static byte[] bytes(ByteBuffer buffer) {
            byte[] bytes = new byte[buffer.remaining()];
            buffer.duplicate().get(bytes);
            return bytes;
        }

        @Override
        public InternalRow get() {
            return current;
        }

        @Override
        public void close() {
            try (SourceOptions.Opened o = opened) {
                samples.close();
            }
        }
    }
}
