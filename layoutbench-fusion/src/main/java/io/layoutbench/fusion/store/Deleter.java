package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;

import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Removes objects and blocks from the nodes. Deleting an object removes its manifest replicas first, so that it is
 * gone for readers, then its blocks, then sweeps the blocks no manifest names (left by a put that failed or by a
 * node that was down). Blocks are removed best effort: a node that is down keeps its blocks as orphans until a later
 * delete of the key sweeps them, while a manifest replica that cannot be removed fails the delete, since the object
 * would come back with its node.
 *
 * <p>Thread-safe: it keeps no state of its own.
 */
final class Deleter {

    private final FacNodes nodes;
    private final ManifestStore manifests;

    Deleter(FacNodes nodes, ManifestStore manifests) {
        this.nodes = nodes;
        this.manifests = manifests;
    }

    /**
     * Deletes the object {@code key}, whatever version it is.
     *
     * @throws StorageException if a manifest replica could not be deleted, naming the nodes
     */
    void delete(String key) {
        Optional<FacManifest> manifest = lastKnownVersion(key);
        List<String> failures = manifests.deleteReplicas(key, manifest);
        manifest.ifPresent(this::deleteBlocks);
        sweepOrphans(key);
        if (!failures.isEmpty()) {
            throw new StorageException("Cannot delete " + key + ": its manifest could not be deleted on "
                    + String.join("; ", failures));
        }
    }

    /** The stored manifest, else the cached one when no replica can be read, so that its blocks can go too. */
    private Optional<FacManifest> lastKnownVersion(String key) {
        try {
            return Optional.of(ObjectBackend.await(manifests.load(key)));
        } catch (ObjectNotFoundException e) {
            return Optional.empty();
        } catch (StorageException e) {
            return manifests.cached(key);
        }
    }

    /** Deletes the stored blocks of the version {@code manifest} describes, best effort. */
    void deleteBlocks(FacManifest manifest) {
        for (FacManifest.Stripe stripe : manifest.stripes()) {
            for (FacManifest.Block block : stripe.blocks()) {
                if (block.length() > 0) {
                    deleteQuietly(block.node(), Placement.blockKey(manifest, stripe.index(), block.index()));
                }
            }
        }
    }

    /** Deletes {@code key} from node {@code node}, ignoring failure. */
    void deleteQuietly(int node, String key) {
        try {
            nodes.get(node).delete(key);
        } catch (RuntimeException ignored) {
            // a node that is down keeps an orphan block; delete() sweeps those later
        }
    }

    /** Deletes every block of every version of {@code key} still on a node that answers. */
    private void sweepOrphans(String key) {
        String prefix = Placement.blockPrefix(key);
        for (int i = 0; i < nodes.count(); i++) {
            try (Stream<ObjectInfo> listed = nodes.get(i).list(prefix)) {
                int node = i;
                // Keys with a further '/' belong to another object whose key extends this one's.
                listed.map(ObjectInfo::key).filter(k -> k.indexOf('/', prefix.length()) < 0)
                        .forEach(k -> deleteQuietly(node, k));
            } catch (RuntimeException ignored) {
                // a node that is down keeps its orphans
            }
        }
    }
}
