package io.layoutbench.layouts.common;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.api.layout.WriteJob;
import io.layoutbench.api.layout.WrittenPart;
import io.layoutbench.api.predicate.ColumnarTable;
import io.layoutbench.layouts.manifest.DatasetManifest;
import io.layoutbench.layouts.manifest.ManifestObject;
import io.layoutbench.parquet.ParquetTableSchema;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * The coordinator's side of a distributed write ({@link io.layoutbench.api.layout.SupportsDistributedWrites}), shared
 * by the layouts: start a job, read and check the manifests of the parts the tasks reported, merge them into the
 * dataset's manifest (each layout says how its properties and tables merge), publish it with
 * {@link ManifestCommit}, or abort the job.
 *
 * <pre>{@code
 * JobCommit commit = JobCommit.of(backend, job, L2Layout.FORMAT_VERSION, parts);
 * String table = commit.mergeTables("metadata.parquet", "metadata.key", L2Writer.tableSchema(job.schema()));
 * return commit.publish(Map.of("metadata.key", table, ...));
 * }</pre>
 */
public final class JobCommit {

    private final ObjectBackend backend;
    private final WriteJob job;
    private final int formatVersion;
    private final List<DatasetManifest> parts;
    private final List<WrittenPart> reports;
    private final IngestObjects merged;
    private final Set<String> mergedAway = new HashSet<>();

    private JobCommit(ObjectBackend backend, WriteJob job, int formatVersion, List<DatasetManifest> parts,
            List<WrittenPart> reports) {
        this.backend = backend;
        this.job = job;
        this.formatVersion = formatVersion;
        this.parts = parts;
        this.reports = reports;
        this.merged = new IngestObjects(backend, WriteTarget.dataset(job).objectPrefix());
    }

    /** Starts a job writing a {@code layout} dataset of {@code schema} at {@code prefix} with checked options. */
    public static WriteJob start(String layout, ObjectBackend backend, String prefix, MetadataSchema schema,
            Map<String, String> options) {
        requireNonNull(backend, "backend is null");
        requireNonNull(schema, "schema is null");
        WriteTarget target = WriteTarget.dataset(backend, layout, GenerationalDatasetWriter.checkPrefix(prefix));
        return new WriteJob(layout, prefix, target.generation(), schema, options, target.replacing());
    }

    /**
     * Reads the manifests of {@code parts} of {@code job}, in part order, checking that each is of this job, layout
     * and schema, holds what its message says, and that no two report one part.
     */
    public static JobCommit of(ObjectBackend backend, WriteJob job, int formatVersion, List<WrittenPart> parts) {
        requireNonNull(backend, "backend is null");
        requireNonNull(job, "job is null");
        // First: an ingest that committed meanwhile has deleted this job's parts, and should be named as the cause.
        ManifestCommit.checkUnchanged(backend, job.layout(), job.prefix(), job.replacing());
        List<WrittenPart> sorted = new ArrayList<>(requireNonNull(parts, "parts is null"));
        sorted.sort(Comparator.comparingInt(WrittenPart::part));
        List<DatasetManifest> manifests = new ArrayList<>(sorted.size());
        for (int i = 0; i < sorted.size(); i++) {
            WrittenPart part = sorted.get(i);
            if (i > 0 && sorted.get(i - 1).part() == part.part()) {
                throw new IllegalArgumentException("Two writers report part " + part.part() + " of the " + job.layout()
                        + " write to '" + job.prefix() + "' (attempts " + sorted.get(i - 1).attempt() + " and "
                        + part.attempt() + "): committing both would store its samples twice");
            }
            // The key is the one the part's own writer uses: two reports cannot name one directory.
            String partPrefix = WriteTarget.part(job, part.part(), part.attempt()).objectPrefix();
            if (!part.generation().equals(job.generation())
                    || !part.manifestKey().equals(DatasetManifest.keyFor(partPrefix))) {
                throw new IllegalArgumentException("Part " + part.part() + " (" + part.manifestKey() + ", generation "
                        + part.generation() + ", attempt " + part.attempt() + ") is not a part of the " + job.layout()
                        + " write to '" + job.prefix() + "' of generation " + job.generation() + " (its manifest "
                        + "would be " + DatasetManifest.keyFor(partPrefix) + ")");
            }
            DatasetManifest manifest = DatasetManifest.read(backend, partPrefix);
            if (!manifest.layout().equals(job.layout()) || !manifest.generation().equals(job.generation())
                    || !manifest.schema().equals(job.schema()) || manifest.formatVersion() != formatVersion) {
                throw new CorruptDataException("The manifest of part " + part.part() + " at " + part.manifestKey()
                        + " is of another write: " + manifest.layout() + " v" + manifest.formatVersion()
                        + ", generation " + manifest.generation() + ", columns [" + manifest.schema().describeColumns()
                        + "]; the job writes " + job.layout() + " v" + formatVersion + ", generation "
                        + job.generation() + ", columns [" + job.schema().describeColumns() + "]");
            }
            if (manifest.sampleCount() != part.samples() || manifest.payloadBytes() != part.payloadBytes()) {
                throw new CorruptDataException("The manifest of part " + part.part() + " at " + part.manifestKey()
                        + " records " + manifest.sampleCount() + " samples of " + manifest.payloadBytes()
                        + " bytes, but its writer reported " + part.samples() + " of " + part.payloadBytes());
            }
            manifests.add(manifest);
        }
        return new JobCommit(backend, job, formatVersion, List.copyOf(manifests), List.copyOf(sorted));
    }

    /**
     * Deletes every object below the job's generation, unless the job's manifest is the one at the prefix (its
     * commit happened: a coordinator aborting after a commit that reported an error must not delete the dataset).
     * The dataset the job would have replaced, if any, is untouched.
     */
    public static void abort(ObjectBackend backend, WriteJob job) {
        if (ManifestCommit.isCommitted(backend, job.prefix(), job.generation())) {
            return;
        }
        List<String> keys = new ArrayList<>();
        try (Stream<ObjectInfo> listing = backend.list(GenerationalDatasetWriter.objectKey(job.prefix(),
                job.generation(), ""))) {
            listing.map(ObjectInfo::key).forEach(keys::add);
        }
        backend.deleteAll(keys);
    }

    /**
     * Checks that {@code job} is a job of {@code layout} (a job handed to another layout's writers is an error, not
     * a dataset of mixed formats); returns it.
     */
    public static WriteJob check(WriteJob job, String layout) {
        requireNonNull(job, "job is null");
        if (!job.layout().equals(layout)) {
            throw new IllegalArgumentException("A write job of the " + job.layout() + " layout (to '" + job.prefix()
                    + "') was handed to the " + layout + " layout");
        }
        return job;
    }

    /** The parts' manifests, in part order. */
    public List<DatasetManifest> parts() {
        return parts;
    }

    /** The job. */
    public WriteJob job() {
        return job;
    }

    /**
     * Merges the parts' tables named by their property {@code keyProperty} (L1's and L2's metadata tables, of
     * {@code tableSchema}) into one, row by row in part order, stored as {@code relative} of the job's generation;
     * checks that no two samples share a name. Holds one part's table in memory at a time. Returns its key.
     */
    public String mergeTables(String relative, String keyProperty, ParquetTableSchema tableSchema) {
        LocalTable table = LocalTable.create("layoutbench-merge-", tableSchema);
        try {
            SampleKeys keys = SampleKeys.of(job.schema());
            UniqueSampleNames names = new UniqueSampleNames(keys);
            long position = 0;
            for (DatasetManifest part : parts) {
                ManifestObject object = tableOf(part, keyProperty);
                MetadataTable rows = MetadataTable.load(backend, object, tableSchema);
                checkRows(part, object, rows.rowCount());
                if (keys.byFilename()) {
                    for (int row = 0; row < rows.rowCount(); row++) {
                        names.check(keys.key(rows.columns(), row), position + row);
                    }
                }
                rows.appendTo(table, tableSchema);
                position += rows.rowCount();
                mergedAway.add(object.key());
            }
        } catch (RuntimeException e) {
            table.discard();
            throw e;
        }
        return merged.putTable(relative, table);
    }

    /**
     * Checks that no two samples of the parts share a name, reading the metadata columns (of {@code tableSchema}) of
     * each part's tables in order: L3's part files, whose blobs are not read.
     */
    public void checkNames(List<List<ManifestObject>> tablesOfParts, ParquetTableSchema tableSchema) {
        SampleKeys keys = SampleKeys.of(job.schema());
        if (!keys.byFilename()) {
            return;   // named by position: unique by construction
        }
        UniqueSampleNames names = new UniqueSampleNames(keys);
        long position = 0;
        for (List<ManifestObject> tables : tablesOfParts) {
            for (ManifestObject object : tables) {
                ColumnarTable rows = MetadataTable.load(backend, object, tableSchema).columns();
                for (int row = 0; row < rows.rowCount(); row++) {
                    names.check(keys.key(rows, row), position + row);
                }
                position += rows.rowCount();
            }
        }
    }

    private ManifestObject tableOf(DatasetManifest part, String keyProperty) {
        return object(part, property(part, keyProperty));
    }

    /**
     * The property {@code name} of the part {@code part} (one of {@link #parts()}).
     *
     * @throws CorruptDataException naming the part's manifest and the property if it has none
     */
    public String property(DatasetManifest part, String name) {
        String value = part.property(name, null);
        if (value == null) {
            throw new CorruptDataException("The manifest of part " + describe(part) + " has no property " + name);
        }
        return value;
    }

    /** The property {@code name} of the part {@code part}, a count. */
    public int count(DatasetManifest part, String name) {
        String value = property(part, name);
        try {
            int count = Integer.parseInt(value);
            if (count >= 0) {
                return count;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CorruptDataException("The manifest of part " + describe(part) + ": " + name + " is not a count: '"
                + value + "'");
    }

    /** The object {@code key} of the part {@code part}, which its manifest must list. */
    public ManifestObject object(DatasetManifest part, String key) {
        return part.object(key).orElseThrow(() -> new CorruptDataException("The manifest of part " + describe(part)
                + " does not list its object " + key));
    }

    private String describe(DatasetManifest part) {
        WrittenPart report = reports.get(parts.indexOf(part));
        return report.part() + " (" + report.manifestKey() + ") of the " + job.layout() + " write to '"
                + job.prefix() + "'";
    }

    private static void checkRows(DatasetManifest part, ManifestObject table, int rows) {
        if (rows != part.sampleCount()) {
            throw new CorruptDataException("Table " + table.key() + " has " + rows + " rows but its part's manifest "
                    + "records " + part.sampleCount() + " samples");
        }
    }

    /**
     * Writes the dataset's manifest: the parts' objects (but the tables merged away) and the objects the commit
     * wrote, with {@code properties}; deletes what no part reported (failed attempts).
     */
    public DatasetSummary publish(Map<String, String> properties) {
        List<ManifestObject> objects = new ArrayList<>();
        long samples = 0;
        long payload = 0;
        for (DatasetManifest part : parts) {
            part.objects().stream().filter(o -> !mergedAway.contains(o.key())).forEach(objects::add);
            samples += part.sampleCount();
            payload += part.payloadBytes();
        }
        objects.addAll(merged.written());
        DatasetManifest manifest = new DatasetManifest(job.layout(), formatVersion, job.generation(), job.schema(),
                samples, payload, objects, properties);
        try {
            return ManifestCommit.publish(backend, job.prefix(), job.replacing(), manifest);
        } catch (RuntimeException e) {
            if (!ManifestCommit.isCommitted(backend, job.prefix(), job.generation())) {
                merged.deleteAll("a refused commit of a " + job.layout() + " write at " + job.prefix());
            }
            throw e;
        }
    }
}
