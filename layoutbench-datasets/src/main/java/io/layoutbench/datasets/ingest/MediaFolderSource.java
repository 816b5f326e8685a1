package io.layoutbench.datasets.ingest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.datasets.SampleSource;
import io.layoutbench.datasets.media.MediaHeaderException;
import io.layoutbench.datasets.media.MediaInfo;
import io.layoutbench.datasets.media.MediaProbe;

import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Samples of any media from a folder laid out as {@code root/<label>/<file>}: images, audio, video, text or anything
 * else, each described by what its headers say ({@link MediaProbe}). Each top-level directory is a label; every
 * regular file under it, at any depth, is a sample of that label.
 *
 * <p>The listing rules are {@link ImageFolderSource}'s: labels sorted by name, then files by their path relative to
 * the label directory; {@code filename} is the path relative to {@code root} with {@code /} separators, or the file
 * name alone with {@link IngestOptions.FilenameStyle#FILE_NAME} (made a valid {@link SampleNames sample name}); two
 * files of one name fail, naming both; hidden entries (names starting with {@code .}) and files directly in
 * {@code root} are ignored; symbolic links are followed. Every other file is a sample, so
 * {@link IngestOptions#unknownFormats()} does not apply.
 *
 * <p>Schema ({@link #mediaSchema()}), null where a fact does not apply or is not known: {@code filename},
 * {@code label} (without the ImageNet schema's alias {@code human_label}), {@code media_type} ({@code image},
 * {@code audio}, {@code video}, {@code text}, {@code other}), {@code format} ({@code jpeg}, {@code wav},
 * {@code mp4} ...; see {@link MediaInfo#format()}), {@code filesize_bytes}, {@code width}, {@code height},
 * {@code duration_seconds}
 * (DOUBLE), {@code sample_rate}, {@code channels}. Each sample has one payload field, {@value Sample#DATA}: the
 * whole file as {@link Blob#ofFile}, read only when the writer reads it, so a 10 GB video ingests with a small heap.
 * {@link #metadata()} reads headers only: a few KB a file.
 *
 * <p>A media file whose header cannot be read (empty, cut short, damaged, or only named like its format) does not
 * stop an ingest by default ({@link IngestOptions.UnreadableMediaPolicy#STORE_OPAQUE}): it is stored whole as opaque
 * bytes with its kind and format as recognised and null header facts, and each pass logs one WARN line naming the
 * file and why. With {@link IngestOptions.UnreadableMediaPolicy#FAIL} it stops the pass with an
 * {@link IngestException} naming the file and why. A file that cannot be read at all fails either way.
 *
 * <pre>{@code
 * MediaFolderSource clips = MediaFolderSource.open(Path.of("/data/speech"), IngestOptions.defaults());
 * try (Stream<MetadataRow> rows = clips.metadata()) {
 *     double hours = rows.filter(r -> r.get("duration_seconds") != null)
 *             .mapToDouble(r -> r.getDouble("duration_seconds")).sum() / 3600;
 * }
 * try (Stream<Sample> samples = clips.samples();
 *      DatasetWriter writer = layout.create(backend, "speech/l3", clips.schema(), Map.of())) {
 *     samples.forEach(writer::add);
 *     writer.commit();
 * }
 * }</pre>
 *
 * <p>Each pass lists the directories again, one at a time, and reads one header at a time. Thread-safe: every
 * stream is independent.
 */
public final class MediaFolderSource implements SampleSource {

    /** Column: the kind of media, {@link io.layoutbench.datasets.media.MediaType#columnValue()}. */
    public static final String MEDIA_TYPE = "media_type";
    /** Column: the file format, {@link MediaInfo#format()}. */
    public static final String FORMAT = "format";
    /** Column: playing time of audio and video, in seconds. */
    public static final String DURATION_SECONDS = "duration_seconds";
    /** Column: audio samples a second per channel. */
    public static final String SAMPLE_RATE = "sample_rate";
    /** Column: audio channels. */
    public static final String CHANNELS = "channels";

    private static final MetadataSchema SCHEMA = new MetadataSchema(List.of(
            new Column(MetadataSchema.FILENAME, ColumnType.STRING),
            new Column(MetadataSchema.LABEL, ColumnType.STRING),
            new Column(MEDIA_TYPE, ColumnType.STRING),
            new Column(FORMAT, ColumnType.STRING),
            new Column(MetadataSchema.FILESIZE_BYTES, ColumnType.BIGINT),
            new Column(MetadataSchema.WIDTH, ColumnType.BIGINT),
            new Column(MetadataSchema.HEIGHT, ColumnType.BIGINT),
            new Column(DURATION_SECONDS, ColumnType.DOUBLE),
            new Column(SAMPLE_RATE, ColumnType.BIGINT),
            new Column(CHANNELS, ColumnType.BIGINT)));

    private static final Logger LOG = LoggerFactory.getLogger(MediaFolderSource.class);

    private final LabelFolder folder;
    private final IngestOptions options;

    private MediaFolderSource(LabelFolder folder, IngestOptions options) {
        this.folder = folder;
        this.options = options;
    }

    /**
     * Opens the folder and lists its label directories.
     *
     * @throws IngestException if {@code root} is not a readable directory
     */
    public static MediaFolderSource open(Path root, IngestOptions options) {
        requireNonNull(root, "root is null");
        requireNonNull(options, "options is null");
        return new MediaFolderSource(LabelFolder.open(root, "Media folder"), options);
    }

    /** {@link #open(Path, IngestOptions)} with {@link IngestOptions#defaults()}. */
    public static MediaFolderSource open(Path root) {
        return open(root, IngestOptions.defaults());
    }

    /** The schema of every media folder, as the class comment lists it. */
    public static MetadataSchema mediaSchema() {
        return SCHEMA;
    }

    public Path root() {
        return folder.root();
    }

    /** The label directories found when the folder was opened, sorted. */
    public List<String> labels() {
        return folder.labels();
    }

    @Override
    public MetadataSchema schema() {
        return SCHEMA;
    }

    @Override
    public Stream<MetadataRow> metadata() {
        return stream(entry -> Optional.of(row(entry, FileSamples.size(entry), info(entry))));
    }

    @Override
    public Stream<Sample> samples() {
        return stream(entry -> {
            MediaInfo info = info(entry);
            Blob file;
            try {
                file = Blob.ofFile(entry.file());
            } catch (UncheckedIOException e) {
                throw FileSamples.ioError(entry, e.getCause());
            }
            return Optional.of(new Sample(row(entry, file.size(), info), Map.of(Sample.DATA, file)));
        });
    }

    /**
     * The files the folder holds, in order, as {@link #samples()} reads them (for a check of whether they changed),
     * listed again on each call.
     */
    public Stream<Path> files() {
        return FileSamples.files(() -> folder.listing(options));
    }

    @Override
    public String toString() {
        return "MediaFolderSource[" + folder.root() + ", " + folder.labels().size() + " labels]";
    }

    private <T> Stream<T> stream(Function<FileEntry, Optional<T>> convert) {
        return FileSamples.stream(() -> folder.listing(options), convert, entry -> true,
                "name samples by their path in the folder (IngestOptions.FilenameStyle.RELATIVE_PATH)");
    }

    /** The file's header facts; none, with a warning or an error as the options say, when they cannot be read. */
    private MediaInfo info(FileEntry entry) {
        try {
            return MediaProbe.probe(entry.file());
        } catch (MediaHeaderException e) {
            if (options.unreadableMedia() == IngestOptions.UnreadableMediaPolicy.FAIL) {
                throw new IngestException(e.getMessage() + " (IngestOptions.UnreadableMediaPolicy.FAIL; STORE_OPAQUE "
                        + "would store it as opaque bytes without header facts)", e);
            }
            LOG.warn("{}; storing it as opaque bytes without header facts", e.getMessage());
            return e.detected();
        } catch (UncheckedIOException e) {
            throw FileSamples.ioError(entry, e.getCause());
        }
    }

    private static MetadataRow row(FileEntry entry, long filesize, MediaInfo info) {
        return new MetadataRow(SCHEMA, Arrays.asList(entry.filename(), entry.label(), info.mediaType().columnValue(),
                info.format(), filesize, info.width(), info.height(), info.durationSeconds(), info.sampleRate(),
                info.channels()));
    }
}
