package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.api.dataset.Blob;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.DatasetWriter;
import io.layoutbench.api.layout.PartWriter;
import io.layoutbench.api.layout.WrittenPart;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.parquet.ParquetTableWriter;

import java.nio.file.Path;
import java.util.Map;

/**
 * The ingest protocol every layout shares. Objects of one ingest go below {@code <prefix>/<generation>/}; the
 * manifest, written last, names the generation and every object ({@link ManifestCommit}). So an ingest that crashes
 * leaves objects no manifest points to (invisible), and the next commit under the same prefix deletes everything
 * below the prefix that neither its manifest nor the manifest it replaces lists: re-running ingest recovers cleanly.
 * A writer closed without commit deletes what it wrote. Every object is recorded in the manifest with its size and
 * CRC32C, computed as it was written ({@link IngestObjects}).
 *
 * <p>A writer of one part of a distributed write ({@link WriteTarget#part}) writes below its own directory of the
 * job's generation, and its {@link #commitPart} writes the part's manifest there instead of the dataset's: the job's
 * commit ({@link JobCommit}) merges the parts' manifests into the dataset's.
 *
 * <pre>{@code
 * final class L1Writer extends GenerationalDatasetWriter {
 *     protected void addSample(Sample s, String key, int crc) { putObject("samples/" + key, s.toByteArray(), crc); }
 *     protected Map<String, String> finish() { ...write metadata...; return Map.of(); }
 * }
 * }</pre>
 */
public abstract class GenerationalDatasetWriter implements DatasetWriter {

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
    private final WriteTarget target;
    private final IngestObjects objects;
    private final UniqueSampleNames names;
    private long samples;
    private long payloadBytes;
    private boolean committed;
    private boolean closed;

    protected GenerationalDatasetWriter(String layout, int formatVersion, ObjectBackend backend, String prefix,
            MetadataSchema schema) {
        this(layout, formatVersion, backend, WriteTarget.dataset(requireNonNull(backend, "backend is null"),
                layout, checkPrefix(prefix)), schema);
    }

    /** A writer of a whole dataset or of one part of a distributed write, as {@code target} says. */
    protected GenerationalDatasetWriter(String layout, int formatVersion, ObjectBackend backend, WriteTarget target,
            MetadataSchema schema) {
        this.layout = requireNonNull(layout, "layout is null");
        this.formatVersion = formatVersion;
        this.backend = requireNonNull(backend, "backend is null");
        this.target = requireNonNull(target, "target is null");
        this.prefix = target.prefix();
        this.generation = target.generation();
        this.schema = requireNonNull(schema, "schema is null");
        this.keys = SampleKeys.of(schema);
        this.names = new UniqueSampleNames(keys);
        this.objects = new IngestObjects(backend, target.objectPrefix());
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
        if (target.isPart()) {
            throw new IllegalStateException("This " + layout + " writer writes part " + target.part() + " of a "
                    + "distributed write to " + prefix + ": it commits with commitPart, and the job commits the "
                    + "dataset");
        }
        Map<String, String> properties = finish();
        DatasetManifest manifest = new DatasetManifest(layout, formatVersion, generation, schema, samples,
                payloadBytes, objects.written(), properties);
        DatasetSummary summary = ManifestCommit.publish(backend, prefix, target.replacing(), manifest);
        committed = true;
        closed = true;
        return summary;
    }

    /**
     * Finishes one part of a distributed write: flushes it, writes the part's manifest in its directory (what it
     * holds, its objects with their checksums, the layout's properties) and returns the message for the job's
     * commit. The dataset is unchanged until the job commits.
     */
    public final WrittenPart commitPart() {
        checkOpen();
        if (!target.isPart()) {
            throw new IllegalStateException("This " + layout + " writer writes a whole dataset: it commits with "
                    + "commit()");
        }
        Map<String, String> properties = finish();
        DatasetManifest manifest = new DatasetManifest(layout, formatVersion, generation, schema, samples,
                payloadBytes, objects.written(), properties);
        manifest.write(backend, target.objectPrefix());
        committed = true;
        closed = true;
        return new WrittenPart(generation, target.part(), target.attempt(),
                DatasetManifest.keyFor(target.objectPrefix()), samples, payloadBytes);
    }

    /** This part writer as the SPI's {@link PartWriter}. */
    public final PartWriter asPartWriter() {
        if (!target.isPart()) {
            throw new IllegalStateException("This " + layout + " writer writes a whole dataset, not a part");
        }
        return new PartWriter() {
            @Override
            public void add(Sample sample) {
                GenerationalDatasetWriter.this.add(sample);
            }

            @Override
            public WrittenPart commit() {
                return commitPart();
            }

            @Override
            public void close() {
                GenerationalDatasetWriter.this.close();
            }
        };
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
            objects.deleteAll("an aborted " + layout + " ingest at " + prefix);
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

    /** Key of an object of this ingest: {@code <prefix>/<generation>/<relative>} (in a part's directory for a part). */
    protected final String objectKey(String relative) {
        return objects.key(relative);
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
        return objects.put(relative, data, crc32c);
    }

    /** Stores {@code blob}, whose CRC32C is {@code crc32c}, as an object of this ingest; streams it if large. */
    protected final String putObject(String relative, Blob blob, int crc32c) {
        return objects.put(relative, blob, crc32c);
    }

    /**
     * Stores the file as an object of this ingest and returns its key; {@code crc32c} is the file's CRC32C, computed
     * while the file was written.
     */
    protected final String putObject(String relative, Path file, int crc32c) {
        return objects.put(relative, file, crc32c);
    }

    /** Stores the file as an object of this ingest, reading it once more to checksum it; returns its key. */
    protected final String putObject(String relative, Path file) {
        return objects.put(relative, file);
    }

    /** Stores the Parquet file {@code written} wrote (and closed) as an object of this ingest. */
    protected final String putParquet(String relative, Path file, ParquetTableWriter written) {
        return objects.putParquet(relative, file, written);
    }

    /** Finishes {@code table}, stores it as the Parquet object {@code relative} of this ingest, deletes its file. */
    protected final String putTable(String relative, LocalTable table) {
        return objects.putTable(relative, table);
    }

    /** Samples added so far. */
    protected final long sampleCount() {
        return samples;
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
