package io.layoutbench.layouts.common;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.api.layout.DatasetSummary;
import io.layoutbench.layouts.manifest.DatasetManifest;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last step of every ingest, one writer's or a distributed job's: write the manifest if the dataset at the
 * prefix is still the one the ingest began to replace, then delete what neither the new manifest nor the replaced one
 * lists. So an ingest that crashes leaves objects no manifest points to (invisible), the next commit under the same
 * prefix deletes them, and a query that opened the replaced dataset reads it whole to the end (its objects go at the
 * commit after).
 *
 * <pre>{@code
 * String replacing = ManifestCommit.identity(backend, "l2", prefix);   // when the ingest starts
 * DatasetSummary summary = ManifestCommit.publish(backend, prefix, replacing, manifest);   // at its end
 * }</pre>
 */
public final class ManifestCommit {

    private static final Logger LOG = LoggerFactory.getLogger(ManifestCommit.class);

    private ManifestCommit() {
    }

    /**
     * {@link DatasetManifest#identity} of the manifest at the prefix, or the empty string if there is none.
     *
     * @throws StorageException if it cannot be read for a reason other than its absence (a transient failure once
     *                          retries are spent, access denied): a commit that went on without knowing the dataset
     *                          it replaces would delete objects its readers may be reading
     */
    public static String identity(ObjectBackend backend, String layout, String prefix) {
        try {
            return DatasetManifest.identity(backend, prefix).orElse("");
        } catch (TransientStorageException | AccessDeniedException e) {
            throw unreadable(layout, prefix, e);
        }
    }

    /**
     * Writes {@code manifest} at {@code prefix} if the manifest there is still {@code replacing}, then deletes the
     * objects below the prefix neither lists; returns what was written.
     *
     * @throws ConcurrentIngestException if another ingest committed there since this one began (nothing written)
     */
    public static DatasetSummary publish(ObjectBackend backend, String prefix, String replacing,
            DatasetManifest manifest) {
        Set<String> previous = replacedObjects(backend, manifest.layout(), prefix, replacing);
        long manifestSize = manifest.write(backend, prefix);
        try {
            deleteUnlisted(backend, prefix, manifest, previous);
        } catch (RuntimeException e) {
            // The dataset is committed: what could not be removed now is removed by the next commit.
            LOG.warn("Committed the {} dataset at {}, but could not remove the objects no manifest lists; the next "
                    + "commit there removes them", manifest.layout(), prefix, e);
        }
        return new DatasetSummary(manifest.layout(), prefix, manifest.sampleCount(), manifest.payloadBytes(),
                manifest.objects().size() + 1L, manifest.storedBytes() + manifestSize);
    }

    /**
     * The objects of the dataset this commit replaces, if one is committed here: readers that opened it before this
     * commit may still be reading them, so they stay until the next commit.
     */
    private static Set<String> replacedObjects(ObjectBackend backend, String layout, String prefix,
            String replacing) {
        checkUnchanged(backend, layout, prefix, replacing);
        if (replacing.isEmpty()) {
            return Set.of();
        }
        try {
            Set<String> objects = new HashSet<>();
            DatasetManifest.read(backend, prefix).objects().forEach(o -> objects.add(o.key()));
            return objects;
        } catch (TransientStorageException | AccessDeniedException e) {
            throw unreadable(layout, prefix, e);
        } catch (LayoutBenchException e) {
            LOG.warn("The {} dataset this ingest replaces at {} has an unreadable manifest; its objects are removed "
                    + "now, not kept for its readers: {}", layout, prefix, e.getMessage());
            return Set.of();
        }
    }

    /**
     * Checks that the manifest at {@code prefix} is still {@code replacing}, the one the ingest began to replace.
     *
     * @throws ConcurrentIngestException if another ingest committed there since
     */
    public static void checkUnchanged(ObjectBackend backend, String layout, String prefix, String replacing) {
        if (!identity(backend, layout, prefix).equals(replacing)) {
            throw new ConcurrentIngestException("Not committing the " + layout + " dataset at '" + prefix + "': "
                    + "another ingest committed there while this one was writing (the manifest there is not the one "
                    + "this ingest began to replace), and may have removed objects this one wrote. Nothing was "
                    + "replaced; ingest again if this data should win, one ingest at a time per prefix");
        }
    }

    /**
     * Whether the manifest at {@code prefix} is of ingest {@code generation}: its commit happened, whatever error
     * its committer saw (a write that landed but whose answer was lost). When the manifest cannot be read for another
     * reason than its absence, the answer is yes: a caller cleaning up after a failed commit must then leave the
     * objects alone, as they may be the dataset's.
     */
    public static boolean isCommitted(ObjectBackend backend, String prefix, String generation) {
        try {
            return DatasetManifest.read(backend, prefix).generation().equals(generation);
        } catch (ObjectNotFoundException e) {
            return false;
        } catch (RuntimeException e) {
            LOG.warn("Cannot tell whether ingest {} at {} was committed: its objects are kept", generation, prefix, e);
            return true;
        }
    }

    private static StorageException unreadable(String layout, String prefix, StorageException e) {
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
    private static void deleteUnlisted(ObjectBackend backend, String prefix, DatasetManifest manifest,
            Set<String> previous) {
        Set<String> keep = new HashSet<>(previous);
        manifest.objects().forEach(o -> keep.add(o.key()));
        keep.add(DatasetManifest.keyFor(prefix));
        List<String> stale = new ArrayList<>();
        try (Stream<ObjectInfo> listing = backend.list(prefix.isEmpty() ? "" : prefix + "/")) {
            listing.map(ObjectInfo::key).filter(k -> !keep.contains(k)).forEach(stale::add);
        }
        if (!stale.isEmpty()) {
            LOG.info("Removing {} objects at {} that neither the new {} manifest nor the one it replaces lists "
                    + "(older, aborted or unfinished ingests, parts of a distributed write)", stale.size(), prefix,
                    manifest.layout());
            backend.deleteAll(stale);
        }
    }
}
