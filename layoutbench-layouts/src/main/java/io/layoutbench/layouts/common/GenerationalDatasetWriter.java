package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.ParquetChecksums;
import io.layoutbench.parquet.ParquetTableWriter;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ingest protocol every layout shares. Objects of one ingest go below {@code <prefix>/<generation>/}; the
 * manifest, written last, names the generation and every object. So an ingest that crashes leaves objects no
 * manifest points to (invisible), and the next commit under the same prefix deletes everything below the prefix
 * that neither its manifest nor the manifest it replaces lists: re-running ingest recovers cleanly, and a query
 * that opened the replaced dataset reads it whole to the end (its objects go at the commit after). A writer closed
 * without commit deletes what it wrote.
 * Every object is recorded in the manifest with its size and CRC32C, computed as it was written
 * (the {@code putObject} and {@link #putParquet} variants take what the writer computed, so no file is read twice to
 * checksum it), and a Parquet object also with the checksums of the regions readers fetch.
 *
 * <pre>{@code
 * final class L1Writer extends GenerationalDatasetWriter {
 *     protected void addSample(Sample s, String key, int crc) { putObject("samples/" + key, s.toByteArray(), crc); }
 *     protected Map<String, String> finish() { ...write metadata...; return Map.of(); }
 * }
 * }</pre>
 */
public abstract class GenerationalDatasetWriter implements DatasetWriter {

    private static final Logger LOG = LoggerFactory.getLogger(GenerationalDatasetWriter.class);
    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss");
    private static final SecureRandom RANDOM = new SecureRandom();

    /** The generation layout models name their objects under: they model an ingest that has not happened. */
    public static final String MODELLED_GENERATION = "modelled";

    protected final ObjectBackend backend;
    protected final String prefix;
    protected final String generation;
    protected final MetadataSchema schema;
    /** How samples of the schema are named (L1's objects, L2's members, errors). */
    protected final SampleKeys keys;
    private final String layout;
    private final int formatVersion;
    private final List<ManifestObject> written = new ArrayList<>();
    private final UniqueSampleNames names;
    /** The manifest at the prefix when this writer was created ({@link #committedManifest}). */
    private final String replacing;
    private long samples;
    private long payloadBytes;
    private boolean committed;
    private boolean closed;

    protected GenerationalDatasetWriter(String layout, int formatVersion, ObjectBackend backend, String prefix,
            MetadataSchema schema) {
        this.layout = requireNonNull(layout, "layout is null");
        this.formatVersion = formatVersion;
        this.backend = requireNonNull(backend, "backend is null");
        this.prefix = checkPrefix(prefix);
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = SampleKeys.of(schema);
        this.names = new UniqueSampleNames(keys);
        this.generation = "g" + ZonedDateTime.now(ZoneOffset.UTC).format(STAMP) + "-"
                + Long.toHexString(RANDOM.nextLong() & 0xffffffffffL);
        this.replacing = committedManifest();
    }

    /** Checks a dataset prefix: a valid key prefix without a trailing slash (may be empty for the root). */
    public static String checkPrefix(String prefix) {
        requireNonNull(prefix, "prefix is null");
        if (prefix.isEmpty()) {
            return prefix;
        }
        if (prefix.endsWith("/")) {
            throw new IllegalArgumentException("Dataset prefix '" + prefix + "' must not end with '/'");
        }
        ObjectKeys.check(prefix);
        return prefix;
    }

    @Override
    public final void add(Sample sample) {
        checkOpen();
        requireNonNull(sample, "sample is null");
        if (!sample.metadata().schema().equals(schema)) {
            throw new IllegalArgumentException("Sample " + describe(sample) + " has columns ["
                    + sample.metadata().schema().describeColumns() + "] but the dataset has ["
                    + schema.describeColumns() + "]");
        }
        String key = keys.key(sample.metadata(), samples);
        names.check(key, samples);
        if (sample.fields().isEmpty()) {
            throw new IllegalArgumentException("Sample '" + key + "' has no payload field; the dataset's fields are "
                    + schema.payloadFields());
        }
        for (String field : sample.fields().keySet()) {
            if (!schema.payloadFields().contains(field)) {
                throw new IllegalArgumentException("Sample '" + key + "' has the payload field '" + field
                        + "' but the dataset's fields are " + schema.payloadFields());
            }
        }
        MetadataParquet.checkSize(sample.metadata(), sample.size(), key);
        int[] checksums = new int[schema.payloadFields().size()];
        for (int f = 0; f < checksums.length; f++) {
            Blob blob = sample.fields().get(schema.payloadFields().get(f));
            if (blob != null && checksumsFields()) {
                checksums[f] = SampleChecksum.of(blob);
            }
        }
        addSample(sample, key, checksums);
        samples++;
        payloadBytes += sample.size();
    }

    @Override
    public final DatasetSummary commit() {
        checkOpen();
        Map<String, String> properties = finish();
        DatasetManifest manifest = new DatasetManifest(layout, formatVersion, generation, schema, samples,
                payloadBytes, written, properties);
        Set<String> previous = replacedObjects();
        long manifestSize = manifest.write(backend, prefix);
        committed = true;
        closed = true;
        deleteUnlisted(manifest, previous);
        return new DatasetSummary(layout, prefix, samples, payloadBytes, written.size() + 1L,
                manifest.storedBytes() + manifestSize);
    }

    @Override
    public final void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            abandon();
        } finally {
            for (ManifestObject object : written) {
                try {
                    backend.delete(object.key());
                } catch (RuntimeException e) {
                    LOG.warn("Could not delete {} of an aborted {} ingest at {}; the next commit there removes it",
                            object.key(), layout, prefix, e);
                }
            }
        }
    }

    /**
     * Stores one sample; {@code key} is its name ({@link SampleKeys}), {@code checksums} the CRC32C of each of the
     * schema's payload fields in schema order (0 for a field the sample lacks), to keep beside their locations. The
     * sample's fields are the schema's (checked); a field may be larger than memory ({@link Blob#inMemory()}).
     */
    protected abstract void addSample(Sample sample, String key, int[] checksums);

    /**
     * Whether {@link #add} reads each field to checksum it (true), or leaves the checksums 0 for a writer that
     * records where fields already lie without reading them (shards indexed in place).
     */
    protected boolean checksumsFields() {
        return true;
    }

    /** Flushes buffered data and writes remaining objects; returns layout settings for the manifest. */
    protected abstract Map<String, String> finish();

    /** Releases local resources (temp files) of an aborted ingest. */
    protected void abandon() {
    }

    /** Key of an object of this ingest: {@code <prefix>/<generation>/<relative>}. */
    protected final String objectKey(String relative) {
        return objectKey(prefix, generation, relative);
    }

    /** Key of the object {@code relative} of the ingest {@code generation} under {@code prefix}. */
    public static String objectKey(String prefix, String generation, String relative) {
        return (prefix.isEmpty() ? "" : prefix + "/") + generation + "/" + relative;
    }

    /** Stores {@code data} as an object of this ingest and returns its key. */
    protected final String putObject(String relative, byte[] data) {
        return putObject(relative, data, SampleChecksum.of(java.nio.ByteBuffer.wrap(data)));
    }

    /** Stores {@code data}, whose CRC32C is {@code crc32c} (computed already), as an object of this ingest. */
    protected final String putObject(String relative, byte[] data, int crc32c) {
        String key = objectKey(relative);
        backend.put(key, data);
        written.add(ManifestObject.of(key, data.length, crc32c));
        return key;
    }

    /** Stores {@code blob}, whose CRC32C is {@code crc32c}, as an object of this ingest; streams it if large. */
    protected final String putObject(String relative, Blob blob, int crc32c) {
        if (blob.inMemory()) {
            return putObject(relative, blob.toByteArray(), crc32c);
        }
        String key = objectKey(relative);
        try (java.io.InputStream in = blob.openStream()) {
            backend.put(key, in, blob.size());
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Cannot store " + blob + " as " + key, e);
        }
        written.add(ManifestObject.of(key, blob.size(), crc32c));
        return key;
    }

    /**
     * Stores the file as an object of this ingest and returns its key; {@code crc32c} is the file's CRC32C, computed
     * while the file was written.
     */
    protected final String putObject(String relative, Path file, int crc32c) {
        return put(relative, file, crc32c, Optional.empty());
    }

    /** Stores the file as an object of this ingest, reading it once more to checksum it; returns its key. */
    protected final String putObject(String relative, Path file) {
        CRC32C crc = new CRC32C();
        try (java.io.InputStream in = Files.newInputStream(file)) {
            byte[] buffer = new byte[64 << 10];
            for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                crc.update(buffer, 0, n);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Cannot read " + file + " to checksum it", e);
        }
        return putObject(relative, file, (int) crc.getValue());
    }

    /**
     * Stores the Parquet file {@code written} wrote (and closed) as an object of this ingest, recording its CRC32C
     * (computed as it was written) and the checksums of its footer, page indexes and metadata chunks (read back from
     * the local file: the blob chunks, its bulk, are not).
     */
    protected final String putParquet(String relative, Path file, ParquetTableWriter written) {
        try {
            if (Files.size(file) != written.bytesWritten()) {
                throw new IllegalStateException("The Parquet writer wrote " + written.bytesWritten() + " bytes but "
                        + file + " holds " + Files.size(file) + ": its checksum would not describe the file");
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Cannot read the size of " + file, e);
        }
        return put(relative, file, written.crc32c(), Optional.of(ParquetChecksums.of(file)));
    }

    /** Finishes {@code table}, stores it as the Parquet object {@code relative} of this ingest, deletes its file. */
    protected final String putTable(String relative, LocalTable table) {
        table.writer().close();
        try {
            return putParquet(relative, table.file(), table.writer());
        } finally {
            TempFiles.delete(table.file());
        }
    }

    private String put(String relative, Path file, int crc32c, Optional<ParquetChecksums> parquet) {
        String key = objectKey(relative);
        try {
            long size = Files.size(file);
            backend.put(key, file);
            written.add(new ManifestObject(key, size, crc32c, parquet));
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("Cannot store " + file + " as " + key, e);
        }
        return key;
    }

    /** Samples added so far. */
    protected final long sampleCount() {
        return samples;
    }

    /**
     * The objects of the dataset this commit replaces, if one is committed here: readers that opened it before this
     * commit may still be reading them, so they stay until the next commit.
     *
     * @throws ConcurrentIngestException if another ingest committed here since this writer was created
     */
    private Set<String> replacedObjects() {
        if (!committedManifest().equals(replacing)) {
            throw new ConcurrentIngestException("Not committing the " + layout + " dataset at '" + prefix + "': "
                    + "another ingest committed there while this one was writing (the manifest there is not the one "
                    + "this ingest began to replace), and may have removed objects this one wrote. Nothing was "
                    + "replaced; ingest again if this data should win, one ingest at a time per prefix");
        }
        if (replacing.isEmpty()) {
            return Set.of();
        }
        try {
            Set<String> objects = new HashSet<>();
            DatasetManifest.read(backend, prefix).objects().forEach(o -> objects.add(o.key()));
            return objects;
        } catch (TransientStorageException | AccessDeniedException e) {
            throw unreadable(e);
        } catch (LayoutBenchException e) {
            LOG.warn("The {} dataset this ingest replaces at {} has an unreadable manifest; its objects are removed "
                    + "now, not kept for its readers: {}", layout, prefix, e.getMessage());
            return Set.of();
        }
    }

    /**
     * {@link DatasetManifest#identity} of the manifest at the prefix, or the empty string if there is none.
     *
     * @throws StorageException if it cannot be read for a reason other than its absence (a transient failure once
     *                          retries are spent, access denied): a commit that went on without knowing the dataset
     *                          it replaces would delete objects its readers may be reading
     */
    private String committedManifest() {
        try {
            return DatasetManifest.identity(backend, prefix).orElse("");
        } catch (TransientStorageException | AccessDeniedException e) {
            throw unreadable(e);
        }
    }

    private StorageException unreadable(StorageException e) {
        return new StorageException("Cannot write the " + layout + " dataset at '" + prefix + "': the manifest of "
                + "the dataset committed there cannot be read (" + e.getMessage() + "), and a commit without it "
                + "would delete objects its readers may be reading. Nothing was replaced", e);
    }

    /**
     * Deletes what neither the new manifest nor the one it replaced lists: generations before the replaced one, and
     * aborted or crashed ingests. The replaced generation goes at the next commit, so a query that opened the old
     * dataset finishes on it whole while a new one is committed (at most two generations are stored at rest).
     *
     * <p>Two ingests at one prefix at once: the first to commit wins, and deletes what the other has written so
     * far; the other then refuses to commit ({@link ConcurrentIngestException}), as the dataset there is no longer
     * the one it began to replace. What is not covered is the moment between that check and the manifest's write
     * (object stores offer no lock for it), so one ingest at a time per prefix is the supported use.
     */
    private void deleteUnlisted(DatasetManifest manifest, Set<String> previous) {
        Set<String> keep = new HashSet<>(previous);
        manifest.objects().forEach(o -> keep.add(o.key()));
        keep.add(DatasetManifest.keyFor(prefix));
        List<String> stale = new ArrayList<>();
        try (Stream<ObjectInfo> listing = backend.list(prefix.isEmpty() ? "" : prefix + "/")) {
            listing.map(ObjectInfo::key).filter(k -> !keep.contains(k)).forEach(stale::add);
        }
        if (!stale.isEmpty()) {
            LOG.info("Removing {} objects at {} that neither the new {} manifest nor the one it replaces lists "
                    + "(older or aborted ingests)", stale.size(), prefix, layout);
            backend.deleteAll(stale);
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("This " + layout + " writer for " + prefix + " is "
                    + (committed ? "committed" : "closed"));
        }
    }

    private String describe(Sample sample) {
        try {
            return "'" + SampleKeys.of(sample.metadata().schema()).key(sample.metadata(), samples) + "'";
        } catch (RuntimeException e) {
            return samples + " (no filename)";
        }
    }
}
