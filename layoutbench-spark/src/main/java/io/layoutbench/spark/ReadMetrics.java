package io.layoutbench.spark;

import io.layoutbench.api.metrics.MetricsSnapshot;
import org.apache.spark.sql.connector.metric.CustomMetric;
import org.apache.spark.sql.connector.metric.CustomSumMetric;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;

/**
 * What a scan's tasks read from the store, as Spark SQL metrics of the scan node (the Spark UI shows them; a test or
 * benchmark reads them from the executed plan): bytes received and requests sent, metadata included. The driver's
 * planning reads are not in them.
 */
final class ReadMetrics {

    /** Metric name: bytes received by the scan's tasks. */
    static final String BYTES = "layoutbenchBytesRead";
    /** Metric name: requests sent by the scan's tasks. */
    static final String REQUESTS = "layoutbenchRequests";

    private ReadMetrics() {
    }

    static CustomMetric[] supported() {
        return new CustomMetric[] {new BytesRead(), new Requests()};
    }

    /** A task's values so far. */
    static CustomTaskMetric[] of(MetricsSnapshot snapshot) {
        return new CustomTaskMetric[] {task(BYTES, snapshot.bytesReceived()), task(REQUESTS,
                snapshot.totalRequests())};
    }

    private static CustomTaskMetric task(String name, long value) {
        return new CustomTaskMetric() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public long value() {
                return value;
            }
        };
    }

    /** Bytes received by the scan's tasks (Spark instantiates it by name: public, no-arg). */
    public static final class BytesRead extends CustomSumMetric {
        @Override
        public String name() {
            return BYTES;
        }

        @Override
        public String description() {
            return "layoutbench bytes read";
        }
    }

    /** Requests sent by the scan's tasks. */
    public static final class Requests extends CustomSumMetric {
        @Override
        public String name() {
            return REQUESTS;
        }

        @Override
        public String description() {
            return "layoutbench requests";
        }
    }
}
