package io.layoutbench.loader;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.Dataset;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.StorageLayouts;
import io.layoutbench.backend.memory.MemoryBackend;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Small class-ordered datasets of every layout for the loader's tests: {@link #SAMPLES} samples of 8-40 KB in
 * {@link #CLASSES} classes, one after the other, as ImageNet's folders are; files small enough that a dataset spans
 * several shards, part files and row groups.
 */
final class LoaderDatasets implements AutoCloseable {

    static final int SAMPLES = 500;
    static final int CLASSES = 10;
    static final List<String> LAYOUTS = List.of("l1", "l2", "l3", "fac");
    static final MetadataSchema SCHEMA = new MetadataSchema(List.of(new Column("filename", ColumnType.STRING),
            new Column("label", ColumnType.STRING), new Column("filesize_bytes", ColumnType.BIGINT)));

    private final ObjectBackend backend = new MemoryBackend();
    private final Map<String, Dataset> datasets = new HashMap<>();

    LoaderDatasets() {
        List<Sample> samples = samples();
        for (String layout : LAYOUTS) {
            Map<String, String> options = switch (layout) {
                case "l2" -> Map.of("shard-size", "1MB");
                case "l3", "fac" -> Map.of("file-size", "4MB", "row-group-size", "1MB");
                default -> Map.of();
            };
            try (DatasetWriter writer = StorageLayouts.get(layout).create(backend, layout, SCHEMA, options)) {
                samples.forEach(writer::add);
                writer.commit();
            }
            datasets.put(layout, StorageLayouts.get(layout).open(backend, layout));
        }
    }

    static List<Sample> samples() {
        Random random = new Random(11);
        List<Sample> samples = new ArrayList<>(SAMPLES);
        for (int i = 0; i < SAMPLES; i++) {
            byte[] bytes = new byte[8_000 + random.nextInt(32_000)];
            random.nextBytes(bytes);
            String label = "class" + (i * CLASSES / SAMPLES);
            samples.add(new Sample(new MetadataRow(SCHEMA, List.of(String.format("s%04d.bin", i), label,
                    (long) bytes.length)), ByteBuffer.wrap(bytes)));
        }
        return samples;
    }

    Dataset get(String layout) {
        return datasets.get(layout);
    }

    ObjectBackend backend() {
        return backend;
    }

    @Override
    public void close() {
        datasets.values().forEach(Dataset::close);
        backend.close();
    }
}
