package io.layoutbench.examples.bench;

import static java.util.Objects.requireNonNull;

import io.layoutbench.datasets.SampleSource;
import io.layoutbench.datasets.ingest.CsvManifestSource;
import io.layoutbench.datasets.ingest.ImageFolderSource;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;

import java.nio.file.Path;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A dataset to ingest: the synthetic ImageNet at a scale and seed, or a user's image folder or CSV manifest, with
 * the id under which its layouts are stored ({@code imagenet-mini-seed42}).
 *
 * <pre>{@code
 * DatasetSource mini = DatasetSource.synthetic(ImageNetScale.MINI, 42, false);
 * DatasetSource mine = DatasetSource.imageFolder(Path.of("/data/pets"), "pets");
 * }</pre>
 *
 * @param id              dataset id, a valid object-key segment
 * @param description     where the samples come from, for reports
 * @param source          opens the samples (lazily: opening a folder lists it)
 * @param expectedSamples samples the source holds, or -1 if unknown without reading it
 */
public record DatasetSource(String id, String description, Supplier<SampleSource> source, long expectedSamples) {

    public DatasetSource {
        requireNonNull(id, "id is null");
        requireNonNull(description, "description is null");
        requireNonNull(source, "source is null");
        if (!id.equals(sanitize(id))) {
            throw new IllegalArgumentException("Dataset id '" + id + "' may hold only letters, digits, '.', '_' "
                    + "and '-'");
        }
    }

    /** The synthetic ImageNet at {@code scale}, as the benchmark generates it. */
    public static DatasetSource synthetic(ImageNetScale scale, long seed, boolean shuffle) {
        String id = syntheticId(scale, seed, shuffle);
        return new DatasetSource(id, "synthetic ImageNet " + scale.scaleName() + ", seed " + seed
                + (shuffle ? ", shuffled" : ""), () -> SyntheticImageNet.of(scale, seed, shuffle),
                scale.sampleCount());
    }

    /** The id of the synthetic dataset: {@code imagenet-mini-seed42}, {@code -shuffled} appended if shuffled. */
    public static String syntheticId(ImageNetScale scale, long seed, boolean shuffle) {
        return "imagenet-" + scale.scaleName() + "-seed" + seed + (shuffle ? "-shuffled" : "");
    }

    /** The image folder {@code root/<label>/<file>}; {@code name} (or the folder's name) is its id. */
    public static DatasetSource imageFolder(Path root, String name) {
        Path absolute = root.toAbsolutePath().normalize();
        return new DatasetSource(idFrom(name, absolute), "image folder " + absolute,
                () -> ImageFolderSource.open(absolute), -1);
    }

    /** The files a CSV manifest lists; {@code name} (or the manifest's file name) is its id. */
    public static DatasetSource csvManifest(Path manifest, String name) {
        Path absolute = manifest.toAbsolutePath().normalize();
        return new DatasetSource(idFrom(name, absolute), "CSV manifest " + absolute,
                () -> CsvManifestSource.open(absolute, io.layoutbench.datasets.ingest.IngestOptions.defaults()), -1);
    }

    /** {@code text} with every character that is not a letter, digit, '.', '_' or '-' replaced by '_'. */
    public static String sanitize(String text) {
        String cleaned = text.replaceAll("[^A-Za-z0-9._-]", "_");
        return cleaned.isEmpty() || cleaned.chars().allMatch(c -> c == '.') ? "_" + cleaned : cleaned;
    }

    private static String idFrom(String name, Path path) {
        if (name != null && !name.isBlank()) {
            return sanitize(name.strip());
        }
        Path fileName = path.getFileName();
        String base = fileName == null ? "dataset" : fileName.toString();
        int dot = base.lastIndexOf('.');
        if (dot > 0 && base.substring(dot).toLowerCase(Locale.ROOT).equals(".csv")) {
            base = base.substring(0, dot);
        }
        return sanitize(base);
    }
}
