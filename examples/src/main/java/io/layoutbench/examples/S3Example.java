package io.layoutbench.examples;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalMode;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.evaluation.paper.PaperQueries;
import io.layoutbench.evaluation.paper.PaperQuery;
import io.layoutbench.s3.embedded.EmbeddedS3Server;

import java.io.IOException;
import java.net.URI;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Layouts over S3: writes the tiny synthetic ImageNet into L2 (tar shards) and L3 (Parquet) in a bucket and runs
 * three of the paper's queries in both retrieval modes, printing the real requests and bytes each one sent: ranged
 * GETs of single samples against whole row groups, or only the pages needed.
 *
 * <p>With no argument it starts an S3 server inside this process (s3proxy over a temporary directory, deleted at the
 * end), so it runs anywhere. With an argument {@code s3://bucket/prefix} it uses that bucket; credentials and region
 * come from the AWS SDK's default chain (environment, {@code ~/.aws}, instance profile), and further arguments
 * {@code key=value} are S3 backend properties ({@code region=eu-west-1}, {@code endpoint=https://...}). It writes
 * about 230 MB under the prefix and leaves them there.
 */
public final class S3Example {

    private S3Example() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            try (ExampleDirectory storage = ExampleDirectory.temporary("layoutbench-s3-example");
                    EmbeddedS3Server server = EmbeddedS3Server.start(storage.path())) {
                server.createBucket("datasets");
                System.out.println("Embedded S3 server at " + server.endpoint() + ", buckets under " + storage.path());
                run(URI.create("s3://datasets/imagenet-tiny"), server.backendProperties());
            }
        } else {
            Map<String, String> properties = new LinkedHashMap<>();
            for (int i = 1; i < args.length; i++) {
                int equals = args[i].indexOf('=');
                if (equals <= 0) {
                    throw new IllegalArgumentException("Expected key=value, got '" + args[i] + "'");
                }
                properties.put(args[i].substring(0, equals), args[i].substring(equals + 1));
            }
            run(URI.create(args[0]), properties);
        }
    }

    private static void run(URI location, Map<String, String> properties) {
        try (ObjectBackend s3 = ObjectBackends.open(location, properties, RequestMetrics.NONE)) {
            for (String name : new String[] {"l2", "l3"}) {
                if (!StorageLayouts.names().contains(name)) {
                    System.out.println(name + ": not on the class path, skipped");
                    continue;
                }
                StorageLayout layout = StorageLayouts.get(name);
                DatasetSummary summary = ingest(s3, layout, name);
                System.out.printf("%s: %d samples in %d objects, %.1f MB%n", name, summary.sampleCount(),
                        summary.objectCount(), summary.storedBytes() / 1e6);
                for (RetrievalMode mode : RetrievalMode.values()) {
                    // A fresh Dataset per mode: the first query of each is a cold run that loads the metadata.
                    try (Dataset dataset = layout.open(s3, name)) {
                        for (String id : new String[] {"Q1", "Q3", "Q8"}) {
                            PaperQuery query = PaperQueries.get(id, "tiny");
                            RetrievalStats stats = drain(dataset, query, QueryOptions.defaults().withMode(mode));
                            System.out.printf("  %-9s %-3s %4d samples  %4d requests  %9d bytes  %.3f s%n",
                                    mode.label(), id, stats.samples(), stats.transfer().totalRequests(),
                                    stats.transfer().bytesReceived(), stats.wallTime().toNanos() / 1e9);
                        }
                    }
                }
            }
        }
    }

    private static DatasetSummary ingest(ObjectBackend backend, StorageLayout layout, String prefix) {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42L, false);
        try (DatasetWriter writer = layout.create(backend, prefix, tiny.schema(), Map.of());
                Stream<Sample> samples = tiny.samples()) {
            Iterator<Sample> iterator = samples.iterator();
            while (iterator.hasNext()) {
                writer.add(iterator.next());
            }
            return writer.commit();
        }
    }

    private static RetrievalStats drain(Dataset dataset, PaperQuery query, QueryOptions options) {
        try (SampleStream samples = dataset.query(query.parse(), options)) {
            samples.forEachRemaining(sample -> { });
            return samples.stats();
        }
    }
}
