package io.layoutbench.spark.examples;

import io.layoutbench.api.dataset.Sample;
import io.layoutbench.datasets.image.ImageHeader;
import io.layoutbench.datasets.image.ImageHeaders;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import org.apache.spark.api.java.function.MapFunction;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.RowFactory;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.catalyst.encoders.RowEncoder;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * Ingests an image folder ({@code root/<label>/<file>}, as ImageNet's train set) through Spark into L2 tar shards,
 * then runs a filtered read: Spark lists and reads the files ({@code binaryFile}), each task reads the images'
 * headers for their sizes ({@link ImageHeaders}, no decoding) and writes its own shards, and the driver commits the
 * dataset once every task has succeeded.
 *
 * <p>Run it in an IDE (the module's test class path has Spark), or {@code scripts/spark-run
 * io.layoutbench.spark.examples.SparkIngestExample [image-folder [store-dir]]}. Without arguments it writes the tiny
 * synthetic ImageNet (1,030 JPEGs of 100 classes) as a folder first.
 */
public final class SparkIngestExample {

    private SparkIngestExample() {
    }

    public static void main(String[] args) throws IOException {
        Path folder = args.length > 0 ? Path.of(args[0]) : demoFolder(Files.createTempDirectory("images-"));
        Path store = args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("layoutbench-store-");
        String backend = "file:" + store.toAbsolutePath();
        try (SparkSession spark = SparkSession.builder().master("local[2]").appName("layoutbench ingest")
                .config("spark.ui.enabled", "false").config("spark.driver.host", "127.0.0.1")
                .config("spark.driver.bindAddress", "127.0.0.1").getOrCreate()) {
            long start = System.nanoTime();
            long samples = ingest(spark, folder, backend, "images/l2");
            System.out.printf("Ingested %d images from %s into l2 at %s/images/l2 in %.1f s%n", samples, folder, store,
                    (System.nanoTime() - start) / 1e9);

            Dataset<Row> cellos = spark.read().format("layoutbench").option("layout", "l2")
                    .option("backend", backend).load("images/l2")
                    .filter("label = 'cello' AND width >= 256")   // pushed down: only these images are read
                    .select("filename", "width", "height", "data");
            for (Row row : cellos.collectAsList()) {
                System.out.printf("  %-40s %5d x %-5d %,9d bytes%n", row.getString(0), row.getLong(1), row.getLong(2),
                        ((byte[]) row.get(3)).length);
            }
        }
    }

    /** Writes the images under {@code folder} ({@link #images}) as an l2 dataset; returns the samples written. */
    static long ingest(SparkSession spark, Path folder, String backend, String prefix) {
        return ingest(spark, folder, backend, prefix, "l2");
    }

    /** Writes the images under {@code folder} ({@link #images}) as a {@code layout} dataset; returns its samples. */
    public static long ingest(SparkSession spark, Path folder, String backend, String prefix, String layout) {
        Dataset<Row> images = images(spark, folder);
        images.write().format("layoutbench").option("layout", layout).option("backend", backend).mode("overwrite")
                .save(prefix);
        return spark.read().format("layoutbench").option("layout", layout).option("backend", backend).load(prefix)
                .count();
    }

    /**
     * The files under {@code folder} as rows of the ImageNet schema: {@code filename} the path below the folder,
     * {@code label} its first directory, {@code filesize_bytes} its length, {@code width} and {@code height} from its
     * header; {@code data} its bytes.
     */
    public static Dataset<Row> images(SparkSession spark, Path folder) {
        String root = folder.toAbsolutePath().normalize().toString();   // a String: the map function is serialized
        StructType schema = new StructType().add("filename", DataTypes.StringType).add("label", DataTypes.StringType)
                .add("filesize_bytes", DataTypes.LongType).add("width", DataTypes.LongType)
                .add("height", DataTypes.LongType).add("data", DataTypes.BinaryType);
        Dataset<Row> files = spark.read().format("binaryFile").option("recursiveFileLookup", "true")
                .load(folder.toString());
        return files.map((MapFunction<Row, Row>) file -> {
            String path = file.getString(file.fieldIndex("path"));
            String relative = Path.of(root).relativize(Path.of(URI.create(path))).toString()
                    .replace(java.io.File.separatorChar, '/');
            byte[] content = (byte[]) file.get(file.fieldIndex("content"));
            ImageHeader header = ImageHeaders.read(content, path);
            return RowFactory.create(relative, relative.substring(0, relative.indexOf('/')), (long) content.length,
                    (long) header.width(), (long) header.height(), content);
        }, RowEncoder.encoderFor(schema));
    }

    /** Writes the tiny synthetic ImageNet into {@code root} as {@code <label>/<file>}; returns {@code root}. */
    static Path demoFolder(Path root) {
        return writeFolder(ImageNetScale.TINY, root);
    }

    /** Writes the synthetic ImageNet of {@code scale} into {@code root} as {@code <label>/<file>}; returns it. */
    public static Path writeFolder(ImageNetScale scale, Path root) {
        Iterator<Sample> samples = SyntheticImageNet.of(scale, 42, false).iterator();
        while (samples.hasNext()) {
            Sample sample = samples.next();
            Path file = root.resolve((String) sample.metadata().get("label"))
                    .resolve((String) sample.metadata().get("filename"));
            try {
                Files.createDirectories(file.getParent());
                Files.write(file, sample.field(Sample.DATA).toByteArray());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return root;
    }
}
