package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.datasets.SampleSource;
import io.layoutbench.datasets.image.ImageHeader;
import io.layoutbench.datasets.image.ImageHeaders;
import io.layoutbench.datasets.image.UnknownImageFormatException;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples listed in an ImageNet-shaped CSV manifest (RFC 4180, UTF-8, see {@link CsvReader}), one file per record,
 * in manifest order: a preset of {@link ManifestSource} with the declared schema {@link MetadataSchema#imageNet()},
 * undeclared columns ignored, and image dimensions read from the image headers where the manifest leaves them out.
 *
 * <p>The header row names the columns, ignoring case and surrounding spaces:
 * <ul>
 *   <li>{@code path} or {@code filename} (at least one). {@code path} is where the file is, relative to the
 *       manifest's directory or absolute; {@code filename} is the sample's name, its metadata {@code filename}
 *       (a valid {@link SampleNames sample name}: a relative path, no {@code ..}), which the layouts store it under
 *       and {@code query --out} writes it as. Without {@code path}, {@code filename} is where the file is too.
 *       A sample whose name is not given (no {@code filename}, or only an absolute or {@code ../} one) is named
 *       after its path: the path relative to the manifest's directory, normalized, with {@code ..} segments that
 *       leave the directory dropped ({@link SampleNames#fromPath}), or the file name alone with
 *       {@link IngestOptions.FilenameStyle#FILE_NAME}. With the manifest in {@code /data/lists}, the paths
 *       {@code img/a.png}, {@code ../images/b.png}, {@code /data/images/c.png} and {@code /mnt/x/d.png} name
 *       samples {@code img/a.png}, {@code images/b.png}, {@code images/c.png} and {@code mnt/x/d.png}. A source
 *       path is never used as a key or an output path;</li>
 *   <li>{@code label} (or {@code human_label}): required, non-empty;</li>
 *   <li>{@code width}, {@code height}, {@code filesize_bytes} (or {@code filesize}): optional; an empty value means
 *       unknown. Unknown dimensions are read from the image header, an unknown size from the file.</li>
 * </ul>
 * Other columns are ignored, and values lose surrounding white space. Two samples may not have one name (the
 * layouts store and find samples by name): a repeat fails naming both lines. {@link #metadata()} trusts declared
 * values and touches a file only for what is not declared; {@link #samples()} opens every file and fails if a
 * declared {@code filesize_bytes} is not the file's length. Declared width and height are not checked against the
 * header, so files of formats the header reader does not know can be ingested by declaring their dimensions.
 *
 * <pre>{@code
 * // manifest.csv:
 * // path,label,width
 * // images/0001.jpg,tench,500
 * // "images/with, comma.png",goldfish,
 * CsvManifestSource source = CsvManifestSource.open(Path.of("manifest.csv"), IngestOptions.defaults());
 * try (Stream<Sample> samples = source.samples()) {
 *     samples.forEach(writer::add);
 * }
 * }</pre>
 *
 * <p>Files of a format the header reader does not know fail, or with
 * {@link IngestOptions.UnknownFormatPolicy#SKIP} are left out, each logged at INFO with its line.
 *
 * <p>Each stream reads the manifest again, one record at a time; samples' bytes are read lazily from their files
 * ({@link io.layoutbench.api.dataset.Blob#ofFile}). Close a stream to close the manifest. Thread-safe: every stream
 * is independent.
 */
public final class CsvManifestSource implements SampleSource {

    private static final Logger LOG = LoggerFactory.getLogger(CsvManifestSource.class);

    private final ManifestSource source;

    private CsvManifestSource(ManifestSource source) {
        this.source = source;
    }

    /**
     * Opens the manifest and checks its header row.
     *
     * @throws IngestException if the manifest cannot be read or its header lacks a required column
     */
    public static CsvManifestSource open(Path manifest, IngestOptions options) {
        requireNonNull(manifest, "manifest is null");
        requireNonNull(options, "options is null");
        ManifestOptions imageNet = ManifestOptions.defaults()
                .withFormat(ManifestFormat.CSV)
                .withSchema(MetadataSchema.imageNet())
                .withUndeclaredColumns(ManifestOptions.UndeclaredColumns.IGNORE)
                .withRenames(Map.of("filesize", MetadataSchema.FILESIZE_BYTES))
                .withFilenames(options.filenames());
        return new CsvManifestSource(ManifestSource.open(manifest, imageNet, new ImageDimensions(options),
                PayloadFiles.LOCAL));
    }

    /** {@link #open(Path, IngestOptions)} with {@link IngestOptions#defaults()}. */
    public static CsvManifestSource open(Path manifest) {
        return open(manifest, IngestOptions.defaults());
    }

    public Path manifest() {
        return source.manifest();
    }

    @Override
    public MetadataSchema schema() {
        return source.schema();
    }

    @Override
    public Stream<MetadataRow> metadata() {
        return source.metadata();
    }

    @Override
    public Stream<Sample> samples() {
        return source.samples();
    }

    /**
     * The files the manifest lists, in order, as {@link #samples()} reads them (for a check of whether they
     * changed). Close the stream to close the manifest.
     *
     * @throws IngestException if the manifest cannot be read or a record is malformed
     */
    public Stream<Path> files() {
        return source.files();
    }

    @Override
    public String toString() {
        return "CsvManifestSource[" + source.manifest() + "]";
    }

    /** Requires a label, checks declared dimensions and reads undeclared ones from the image header. */
    private static final class ImageDimensions implements RowCompletion {
        private final IngestOptions options;

        ImageDimensions(IngestOptions options) {
            this.options = options;
        }

        @Override
        public Set<String> fills() {
            return Set.of(MetadataSchema.WIDTH, MetadataSchema.HEIGHT);
        }

        @Override
        public boolean complete(Object[] values, MetadataSchema schema, Context row) {
            int label = schema.indexOf(MetadataSchema.LABEL).orElseThrow();
            int width = schema.indexOf(MetadataSchema.WIDTH).orElseThrow();
            int height = schema.indexOf(MetadataSchema.HEIGHT).orElseThrow();
            if (values[label] == null || ((String) values[label]).isEmpty()) {
                throw new IngestException(row.origin() + ": empty label for " + row.location());
            }
            atLeastOne(values[width], MetadataSchema.WIDTH, row);
            atLeastOne(values[height], MetadataSchema.HEIGHT, row);
            if (values[width] != null && values[height] != null) {
                return true;
            }
            ImageHeader header;
            try {
                header = ImageHeaders.read(row.file());
            } catch (UnknownImageFormatException e) {
                if (options.unknownFormats() == IngestOptions.UnknownFormatPolicy.SKIP) {
                    LOG.info("Leaving out {}: {}", row.origin(), e.getMessage());
                    return false;
                }
                throw e;
            } catch (UncheckedIOException e) {
                throw ManifestSource.fileError(row.origin(), row.pathColumn(), row.file(), e.getCause());
            }
            if (values[width] == null) {
                values[width] = (long) header.width();
            }
            if (values[height] == null) {
                values[height] = (long) header.height();
            }
            return true;
        }

        private static void atLeastOne(Object value, String column, Context row) {
            if (value != null && (Long) value < 1) {
                throw new IngestException(row.origin() + ", column " + column + ": " + value + " is below 1");
            }
        }
    }
}
