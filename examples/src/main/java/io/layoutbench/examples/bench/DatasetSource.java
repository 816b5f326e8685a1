package io.layoutbench.examples.bench;

import static java.util.Objects.requireNonNull;

import io.layoutbench.datasets.SampleSource;
import io.layoutbench.datasets.ingest.CsvManifestSource;
import io.layoutbench.datasets.ingest.ImageFolderSource;
import io.layoutbench.datasets.ingest.IngestOptions;
import io.layoutbench.datasets.ingest.ManifestOptions;
import io.layoutbench.datasets.ingest.ManifestSource;
import io.layoutbench.datasets.ingest.MediaFolderSource;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.datasets.synthetic.speech.SpeechScale;
import io.layoutbench.datasets.synthetic.speech.SyntheticSpeech;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * A dataset to ingest: the synthetic ImageNet or speech corpus at a scale and seed, or a user's image folder or CSV
 * manifest, with the id under which its layouts are stored ({@code imagenet-mini-seed42}, {@code speech-mini-seed42}).
 *
 * <pre>{@code
 * DatasetSource mini = DatasetSource.synthetic(ImageNetScale.MINI, 42, false);
 * DatasetSource speech = DatasetSource.syntheticSpeech(SpeechScale.TINY, 42, false);
 * DatasetSource mine = DatasetSource.imageFolder(Path.of("/data/pets"), "pets");
 * }</pre>
 *
 * @param id              dataset id, a valid object-key segment: the name with every character but letters, digits,
 *                        '.', '_' and '-' replaced by '_', so two names can have one id
 * @param name            dataset name as the user gave it (or the folder's or manifest's name; for the synthetic
 *                        dataset, its id), kept in the ingest record so two names of one id are not confused
 * @param description     where the samples come from, for reports
 * @param source          opens the samples (lazily: opening a folder lists it)
 * @param expectedSamples samples the source holds, or -1 if unknown without reading it
 * @param fingerprint     what the source holds now ({@link SourceFingerprint}): computed on first use (listing a
 *                        folder), then remembered
 */
public record DatasetSource(String id, String name, String description, Supplier<SampleSource> source,
        long expectedSamples, Supplier<SourceFingerprint> fingerprint) {

    public DatasetSource {
        requireNonNull(id, "id is null");
        requireNonNull(name, "name is null");
        requireNonNull(description, "description is null");
        requireNonNull(source, "source is null");
        requireNonNull(fingerprint, "fingerprint is null");
        if (!id.equals(sanitize(id))) {
            throw new IllegalArgumentException("Dataset id '" + id + "' may hold only letters, digits, '.', '_' "
                    + "and '-'");
        }
        fingerprint = memoize(fingerprint);
    }

    /** The synthetic ImageNet at {@code scale}, as the benchmark generates it. */
    public static DatasetSource synthetic(ImageNetScale scale, long seed, boolean shuffle) {
        String id = syntheticId(scale, seed, shuffle);
        String description = "synthetic ImageNet " + scale.scaleName() + ", seed " + seed
                + (shuffle ? ", shuffled" : "");
        return new DatasetSource(id, id, description, () -> SyntheticImageNet.of(scale, seed, shuffle),
                scale.sampleCount(), () -> SourceFingerprint.synthetic(description, scale.sampleCount()));
    }

    /** The id of the synthetic dataset: {@code imagenet-mini-seed42}, {@code -shuffled} appended if shuffled. */
    public static String syntheticId(ImageNetScale scale, long seed, boolean shuffle) {
        return "imagenet-" + scale.scaleName() + "-seed" + seed + (shuffle ? "-shuffled" : "");
    }

    /** The synthetic speech corpus at {@code scale}, as the speech benchmark generates it. */
    public static DatasetSource syntheticSpeech(SpeechScale scale, long seed, boolean shuffle) {
        String id = "speech-" + scale.scaleName() + "-seed" + seed + (shuffle ? "-shuffled" : "");
        String description = "synthetic speech " + scale.scaleName() + ", seed " + seed
                + (shuffle ? ", shuffled" : "");
        return new DatasetSource(id, id, description, () -> SyntheticSpeech.of(scale, seed, shuffle),
                scale.utteranceCount(), () -> SourceFingerprint.synthetic(description, scale.utteranceCount()));
    }

    /** The image folder {@code root/<label>/<file>}; {@code name} (or the folder's name) is its id. */
    public static DatasetSource imageFolder(Path root, String name) {
        Path absolute = root.toAbsolutePath().normalize();
        String description = "image folder " + absolute;
        return new DatasetSource(idFrom(name, absolute), nameFrom(name, absolute), description,
                () -> ImageFolderSource.open(absolute), -1,
                () -> SourceFingerprint.ofFiles(description, null, ImageFolderSource.open(absolute).files()));
    }

    /** The folder {@code root/<label>/<file>} of any media; {@code name} (or the folder's name) is its id. */
    public static DatasetSource mediaFolder(Path root, String name) {
        Path absolute = root.toAbsolutePath().normalize();
        String description = "media folder " + absolute;
        return new DatasetSource(idFrom(name, absolute), nameFrom(name, absolute), description,
                () -> MediaFolderSource.open(absolute, IngestOptions.defaults()), -1,
                () -> SourceFingerprint.ofFiles(description, null,
                        MediaFolderSource.open(absolute, IngestOptions.defaults()).files()));
    }

    /** The files a CSV manifest lists; {@code name} (or the manifest's file name) is its id. */
    public static DatasetSource csvManifest(Path manifest, String name) {
        Path absolute = manifest.toAbsolutePath().normalize();
        String description = "CSV manifest " + absolute;
        return new DatasetSource(idFrom(name, absolute), nameFrom(name, absolute), description,
                () -> CsvManifestSource.open(absolute, IngestOptions.defaults()), -1,
                () -> SourceFingerprint.ofFiles(description, absolute,
                        CsvManifestSource.open(absolute, IngestOptions.defaults()).files()));
    }

    /**
     * The files a manifest (CSV, JSON Lines or Parquet) lists, with any columns, its schema declared or inferred as
     * {@code options} say; {@code name} (or the manifest's file name) is its id; {@code readWith} says how the
     * options differ from the defaults ("schema a:bigint, path column file"), empty if they do not.
     */
    public static DatasetSource manifest(Path manifest, String name, ManifestOptions options, String readWith) {
        Path absolute = manifest.toAbsolutePath().normalize();
        // How it is read is part of what it is: other columns or fields are another dataset, ingested again.
        String description = "manifest " + absolute + (readWith.isEmpty() ? "" : " (" + readWith + ")");
        return new DatasetSource(idFrom(name, absolute), nameFrom(name, absolute), description,
                () -> ManifestSource.open(absolute, options), -1,
                () -> SourceFingerprint.ofFiles(description, absolute,
                        ManifestSource.open(absolute, options).files()));
    }

    /** {@code text} with every character that is not a letter, digit, '.', '_' or '-' replaced by '_'. */
    public static String sanitize(String text) {
        String cleaned = text.replaceAll("[^A-Za-z0-9._-]", "_");
        return cleaned.isEmpty() || cleaned.chars().allMatch(c -> c == '.') ? "_" + cleaned : cleaned;
    }

    private static String idFrom(String name, Path path) {
        return sanitize(nameFrom(name, path));
    }

    /** {@code name} stripped, or else the folder's name or the manifest's without {@code .csv}. */
    private static String nameFrom(String name, Path path) {
        if (name != null && !name.isBlank()) {
            return name.strip();
        }
        Path fileName = path.getFileName();
        String base = fileName == null ? "dataset" : fileName.toString();
        int dot = base.lastIndexOf('.');
        if (dot > 0 && List.of(".csv", ".jsonl", ".ndjson", ".parquet", ".pq")
                .contains(base.substring(dot).toLowerCase(Locale.ROOT))) {
            base = base.substring(0, dot);
        }
        return base;
    }

    /** {@code supplier}, called once, on first use, from any thread. */
    private static <T> Supplier<T> memoize(Supplier<T> supplier) {
        if (supplier instanceof Memoized) {
            return supplier;
        }
        return new Memoized<>(supplier);
    }

    private static final class Memoized<T> implements Supplier<T> {
        private final Supplier<T> supplier;
        private T value;

        Memoized(Supplier<T> supplier) {
            this.supplier = supplier;
        }

        @Override
        public synchronized T get() {
            if (value == null) {
                value = requireNonNull(supplier.get(), "the supplier returned null");
            }
            return value;
        }
    }
}
