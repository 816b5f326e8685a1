package io.layoutbench.examples;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectBackends;
import io.layoutbench.api.cost.CostModel;
import io.layoutbench.api.cost.Prediction;
import io.layoutbench.api.cost.Prices;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.RetrievalStats;
import io.layoutbench.api.layout.SampleStream;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.network.NetworkProfiles;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.io.IOException;
import java.util.Iterator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The shortest path through the library: generate the tiny synthetic ImageNet (1,030 samples, about 113 MB), write
 * it into layout L2 (tar shards) in a directory, fetch every cello by metadata predicate, and print what the query
 * read next to what the cost model predicted for an EC2 t3.medium client. The directory is the argument if one is
 * given (the dataset is kept there), else a temporary one deleted at the end.
 *
 * <p>Run it from an IDE, or: {@code mvn -q -pl examples -am compile exec:java
 * -Dexec.mainClass=io.layoutbench.examples.Quickstart}.
 */
public final class Quickstart {

    private Quickstart() {
    }

    public static void main(String[] args) throws IOException {
        SyntheticImageNet tiny = SyntheticImageNet.of(ImageNetScale.TINY, 42L, false);
        StorageLayout l2 = StorageLayouts.get("l2");

        try (ExampleDirectory directory = ExampleDirectory.of(args, "layoutbench-quickstart");
                ObjectBackend backend = ObjectBackends.open("file:" + directory.path())) {
            // 1. Ingest: samples stream through the writer one at a time; the manifest is written last.
            DatasetSummary summary;
            try (DatasetWriter writer = l2.create(backend, "imagenet-tiny/l2", tiny.schema(),
                    Map.of("shard-size", "64MB"));
                    Stream<Sample> samples = tiny.samples()) {
                Iterator<Sample> iterator = samples.iterator();
                while (iterator.hasNext()) {
                    writer.add(iterator.next());
                }
                summary = writer.commit();
            }
            System.out.printf("Wrote %d samples (%.1f MB) into %d objects under %s%n", summary.sampleCount(),
                    summary.payloadBytes() / 1e6, summary.objectCount(), backend.uri());

            // 2. Query: the metadata table is read once (the cold part), then one ranged GET per matching sample
            //    or per merged run of them.
            Query cellos = Query.parse("human_label = 'cello'");
            QueryOptions options = QueryOptions.defaults().withNetwork(NetworkProfiles.T3_MEDIUM);
            try (Dataset dataset = l2.open(backend, "imagenet-tiny/l2")) {
                RetrievalStats stats;
                try (SampleStream samples = dataset.query(cellos, options)) {
                    while (samples.hasNext()) {
                        Sample sample = samples.next();
                        System.out.printf("  %-30s %-6s %7d bytes  %dx%d%n", sample.filename(),
                                sample.metadata().getString("label"), sample.size(),
                                sample.metadata().getLong("width"), sample.metadata().getLong("height"));
                    }
                    stats = samples.stats();
                }
                System.out.printf("Read %d samples: %d requests, %d bytes, %.3f s on local disk%n",
                        stats.samples(), stats.transfer().totalRequests(), stats.transfer().bytesReceived(),
                        stats.wallTime().toNanos() / 1e9);

                // 3. Predict what the same query costs from an EC2 t3.medium reading S3, before running it there.
                CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.T3_MEDIUM);
                Prediction cold = model.predict(dataset.plan(cellos, options), true, options);
                System.out.printf("On a t3.medium against S3 (cold): %.3f s, %d bytes, %d requests, $%.7f%n",
                        cold.time().toNanos() / 1e9, cold.bytes(), cold.requests(), cold.cost().total());
            }
            System.out.println("Dataset in " + directory);
        }
    }
}
