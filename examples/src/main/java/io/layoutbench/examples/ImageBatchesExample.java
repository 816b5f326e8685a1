package io.layoutbench.examples;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.api.layout.StorageLayout;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.layouts.arrow.ArrowBatches;
import io.layoutbench.loader.DataLoader;
import io.layoutbench.loader.DecodedBatches;
import io.layoutbench.loader.Epoch;
import io.layoutbench.loader.LoaderSettings;
import io.layoutbench.loader.Shuffle;
import java.awt.Color;
import java.awt.Graphics2D;
import java.awt.image.BufferedImage;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import javax.imageio.ImageIO;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The hand-off from storage to a training step: real JPEG images with a class caption ({@code jpg} and {@code cls}
 * payload fields, WebDataset style) stored in L3, read by the loader in shuffled batches and decoded with
 * {@link ImageIO} on the loader's worker threads, batch by batch, in order. The "training step" here averages each
 * batch's colour per class. Then the same batches as an Arrow record batch, for a columnar pipeline.
 */
public final class ImageBatchesExample {

    private static final List<String> CLASSES = List.of("red", "green", "blue");
    private static final MetadataSchema SCHEMA = new MetadataSchema(List.of(new Column("filename", ColumnType.STRING),
            new Column("label", ColumnType.STRING), new Column("width", ColumnType.BIGINT),
            new Column("height", ColumnType.BIGINT)), List.of("jpg", "cls"));

    private ImageBatchesExample() {
    }

    public static void main(String[] args) throws Exception {
        try (ObjectBackend backend = new MemoryBackend()) {
            StorageLayout l3 = StorageLayouts.get("l3");
            try (DatasetWriter writer = l3.create(backend, "colours/l3", SCHEMA, Map.of())) {
                Random random = new Random(3);
                for (int i = 0; i < 240; i++) {
                    String label = CLASSES.get(i * CLASSES.size() / 240);   // class order, as folders are
                    writer.add(image(random, String.format("img%03d.jpg", i), label));
                }
                writer.commit();
            }
            try (Dataset dataset = l3.open(backend, "colours/l3")) {
                LoaderSettings settings = LoaderSettings.defaults().withBatchSize(24).withWorkers(2).withSeed(7)
                        .withShuffle(Shuffle.blocks(64 << 10, 48));
                DataLoader loader = DataLoader.open(dataset, Query.parse("width >= 64"), QueryOptions.defaults(),
                        settings);
                try (Epoch epoch = loader.epoch(0);
                        DecodedBatches<Decoded> images = epoch.decoded(ImageBatchesExample::decode)) {
                    int number = 0;
                    while (images.hasNext()) {
                        step(number++, images.next());
                    }
                    System.out.printf("Epoch 0: %d images decoded, %d requests, %d bytes read%n",
                            epoch.stats().samples(), epoch.stats().requests(), epoch.stats().bytesRead());
                }
                try (BufferAllocator allocator = new RootAllocator();
                        VectorSchemaRoot root = ArrowBatches.newRoot(dataset.schema(), List.of("jpg", "cls"),
                                allocator);
                        Epoch epoch = loader.epoch(1)) {
                    ArrowBatches.fill(root, epoch.next());
                    System.out.printf("Epoch 1, first batch as Arrow: %d rows, columns %s%n", root.getRowCount(),
                            root.getSchema().getFields().stream().map(f -> f.getName()).toList());
                }
            }
        }
    }

    /** A sample: a JPEG of one dominant colour with noise, and its class as the {@code cls} field. */
    private static Sample image(Random random, String name, String label) {
        int width = 64 + random.nextInt(64);
        int height = 48 + random.nextInt(48);
        BufferedImage image = new BufferedImage(width, height, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = image.createGraphics();
        int c = CLASSES.indexOf(label);
        g.setColor(new Color(c == 0 ? 200 : 40, c == 1 ? 200 : 40, c == 2 ? 200 : 40));
        g.fillRect(0, 0, width, height);
        for (int i = 0; i < 40; i++) {
            g.setColor(new Color(random.nextInt(256), random.nextInt(256), random.nextInt(256)));
            g.fillOval(random.nextInt(width), random.nextInt(height), 6, 6);
        }
        g.dispose();
        ByteArrayOutputStream jpeg = new ByteArrayOutputStream();
        try {
            ImageIO.write(image, "jpg", jpeg);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Map<String, Blob> fields = new LinkedHashMap<>();
        fields.put("jpg", Blob.of(jpeg.toByteArray()));
        fields.put("cls", Blob.of(label.getBytes(StandardCharsets.UTF_8)));
        return new Sample(MetadataRow.of(SCHEMA, Map.of("filename", name, "label", label, "width", (long) width,
                "height", (long) height)), fields);
    }

    /** An image decoded, with its class. */
    record Decoded(String label, BufferedImage image) {
    }

    /** Runs on a loader worker thread: decoding is the CPU work the workers share. */
    private static Decoded decode(Sample sample) throws IOException {
        try (InputStream jpeg = sample.field("jpg").openStream()) {
            BufferedImage image = ImageIO.read(jpeg);
            if (image == null) {
                throw new IOException("Sample " + sample.filename() + " is not an image ImageIO reads");
            }
            return new Decoded(StandardCharsets.UTF_8.decode(sample.field("cls").readAll()).toString(), image);
        }
    }

    /** The "training step": the batch's mean colour per class. */
    private static void step(int number, List<Decoded> batch) {
        Map<String, long[]> sums = new TreeMap<>();
        for (Decoded decoded : batch) {
            Color centre = new Color(decoded.image().getRGB(decoded.image().getWidth() / 2, 0));
            long[] sum = sums.computeIfAbsent(decoded.label(), k -> new long[4]);
            sum[0] += centre.getRed();
            sum[1] += centre.getGreen();
            sum[2] += centre.getBlue();
            sum[3]++;
        }
        StringBuilder line = new StringBuilder(String.format("batch %2d: %2d images", number, batch.size()));
        sums.forEach((label, sum) -> line.append(String.format(", %s x%d (rgb %d/%d/%d)", label, sum[3],
                sum[0] / sum[3], sum[1] / sum[3], sum[2] / sum[3])));
        System.out.println(line);
    }
}
