package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.ObjectInfo;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.SupportsFirstByteSignal;
import io.layoutbench.api.metrics.RequestKind;
import io.layoutbench.api.metrics.RequestMetrics;
import io.layoutbench.layouts.retrieval.RacedReads;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * The manifests (chunk location maps) of a FAC store. Owns their replicas: each object's manifest lies on n - k + 1
 * nodes from its home ({@link Placement}), so it outlives the same n - k lost nodes as the data. Loading tries the
 * replicas in turn and skips any that is missing, unreachable or damaged; writing a new version writes every replica
 * or puts the old version back; repair rewrites the replicas that are missing or stale; listing reads the
 * manifests of all nodes. Keeps the newest manifest seen per key, so that reads need no request for it.
 *
 * <p>Thread-safe. The cache is a concurrent map; when loads race, the newer generation stays. Another writer's
 * changes are seen on the next {@link #load}, which {@link FacBackend} does when a read fails.
 */
final class ManifestStore {

    private final FacNodes nodes;
    private final Placement placement;
    private final Map<String, FacManifest> cache = new ConcurrentHashMap<>();

    ManifestStore(FacNodes nodes) {
        this.nodes = nodes;
        this.placement = nodes.placement();
    }

    /** The manifest of {@code key}: the cached one, else loaded from its replicas. */
    CompletableFuture<FacManifest> get(String key) {
        return get(key, null);
    }

    /**
     * The manifest of {@code key}: the cached one, else loaded from its replicas, several at once as {@code racing}
     * says (null: one at a time).
     */
    CompletableFuture<FacManifest> get(String key, RacedNodeReads racing) {
        FacManifest cached = cache.get(key);
        return cached != null ? CompletableFuture.completedFuture(cached) : load(key, racing);
    }

    /**
     * The manifest of {@code key}, read from its replicas now. Fails with {@link ObjectNotFoundException} when every
     * replica node answers that it has none, and with {@link StorageException} naming each node's failure when no
     * replica can be used.
     */
    CompletableFuture<FacManifest> load(String key) {
        return load(key, null);
    }

    /**
     * {@link #load(String)}, racing the first replicas as {@code racing} says (null: one at a time): the first whose
     * response starts is read, the others are cancelled then. When that read fails or does not decode, the replicas
     * are tried in turn, as without a race, so a damaged or missing replica costs time, never the object.
     */
    CompletableFuture<FacManifest> load(String key, RacedNodeReads racing) {
        int home = placement.home(key);
        int expected = placement.replicas(nodes.options().code());
        CompletableFuture<FacManifest> raced = racing == null ? null
                : raceReplicas(key, home, racing.manifestCopies(Math.min(expected, nodes.count())));
        CompletableFuture<FacManifest> loaded = raced == null ? loadInTurn(key, home, expected)
                : raced.exceptionallyCompose(error -> loadInTurn(key, home, expected));
        return loaded.thenApply(manifest -> {
            cache.merge(key, manifest, (old, fresh) ->
                    old.generation().compareTo(fresh.generation()) >= 0 ? old : fresh);
            return manifest;
        });
    }

    private CompletableFuture<FacManifest> loadInTurn(String key, int home, int expected) {
        List<String> failures = Collections.synchronizedList(new ArrayList<>());
        return loadReplica(key, home, 0, expected, failures, new boolean[] {true});
    }

    /**
     * The manifest from whichever of the first {@code copies} replica nodes answers first, or null when there is no
     * race to run: one copy, or a node that does not signal first bytes.
     */
    private CompletableFuture<FacManifest> raceReplicas(String key, int home, int copies) {
        if (copies < 2) {
            return null;
        }
        String manifestKey = Placement.manifestKey(key);
        List<Function<Runnable, CompletableFuture<ByteBuffer>>> reads = new ArrayList<>(copies);
        List<String> names = new ArrayList<>(copies);
        for (int r = 0; r < copies; r++) {
            int node = (home + r) % nodes.count();
            if (!(nodes.get(node) instanceof SupportsFirstByteSignal signalling)) {
                return null;
            }
            reads.add(onFirstByte -> signalling.readAllAsync(manifestKey, onFirstByte));
            names.add(nodes.name(node));
        }
        // The map's read is the store's own, not a request of the caller's: nor are its copies (RacedNodeReads).
        return RacedReads.first(reads, RequestMetrics.NONE, RequestKind.GET)
                .thenApply(bytes -> decode(key, bytes, manifestKey + " on one of " + names));
    }

    /** The manifest of {@code key} in {@code bytes}, read from {@code where}; fails if it is damaged or another's. */
    private static FacManifest decode(String key, ByteBuffer bytes, String where) {
        FacManifest manifest = FacManifest.decode(bytes, where);
        if (!manifest.key().equals(key)) {
            throw new CorruptDataException("The manifest " + where + " describes " + manifest.key());
        }
        return manifest;
    }

    /**
     * Tries node {@code home + r}, then the next. Past the expected replicas it goes on only while some node failed
     * for another reason than a missing manifest (the object may have been written under another code); when all
     * said "not found", there is no object.
     */
    private CompletableFuture<FacManifest> loadReplica(String key, int home, int r, int expected,
            List<String> failures, boolean[] allNotFound) {
        if (r >= nodes.count() || r >= expected && allNotFound[0]) {
            String message = "Cannot read the manifest of " + key + " from " + r + " nodes: "
                    + String.join("; ", failures);
            return CompletableFuture.failedFuture(allNotFound[0]
                    ? new ObjectNotFoundException("No object " + key + " in the FAC store over "
                            + nodes.count() + " nodes (no manifest on nodes " + home + " to "
                            + ((home + r - 1) % nodes.count()) + ")")
                    : new StorageException(message));
        }
        int node = (home + r) % nodes.count();
        String manifestKey = Placement.manifestKey(key);
        CompletableFuture<ByteBuffer> raw;
        try {
            raw = nodes.get(node).readAllAsync(manifestKey);
        } catch (RuntimeException e) {
            raw = CompletableFuture.failedFuture(e);
        }
        return raw.thenApply(bytes -> decode(key, bytes, manifestKey + " on " + nodes.name(node)))
                .exceptionallyCompose(error -> {
                    Throwable cause = Futures.unwrap(error);
                    if (!(cause instanceof ObjectNotFoundException)) {
                        allNotFound[0] = false;
                    }
                    failures.add(nodes.name(node) + ": " + cause.getMessage());
                    return loadReplica(key, home, r + 1, expected, failures, allNotFound);
                });
    }

    /** The cached manifest of {@code key}, if any: what this store last wrote or loaded. */
    Optional<FacManifest> cached(String key) {
        return Optional.ofNullable(cache.get(key));
    }

    /** The version a put of {@code key} replaces: cached, else loaded; empty when there is none or none loads. */
    Optional<FacManifest> previousVersion(String key) {
        FacManifest cached = cache.get(key);
        if (cached != null) {
            return Optional.of(cached);
        }
        try {
            return Optional.of(ObjectBackend.await(load(key)));
        } catch (StorageException e) {
            return Optional.empty();
        }
    }

    /**
     * Writes {@code manifest} to all its replica nodes in parallel, which makes its version the object, and caches
     * it. When a replica cannot be written, the replicas already written are put back to {@code previous} (or
     * deleted, when there was none), so that the object is not half replaced, and the put fails.
     *
     * @throws StorageException naming each node that failed
     */
    void publish(FacManifest manifest, Optional<FacManifest> previous) {
        byte[] bytes = manifest.encode();
        String manifestKey = Placement.manifestKey(manifest.key());
        List<Integer> targets = placement.replicaNodes(manifest.key(), manifest.code());
        List<Future<?>> puts = new ArrayList<>();
        for (int node : targets) {
            ObjectBackend backend = nodes.get(node);
            puts.add(nodes.submitWrite(() -> {
                backend.put(manifestKey, bytes);
                return null;
            }));
        }
        List<String> failures = new ArrayList<>();
        List<Integer> done = new ArrayList<>();
        for (int i = 0; i < puts.size(); i++) {
            try {
                puts.get(i).get();
                done.add(targets.get(i));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                failures.add(nodes.name(targets.get(i)) + ": interrupted");
            } catch (ExecutionException e) {
                failures.add(nodes.name(targets.get(i)) + ": " + Futures.unwrap(e).getMessage());
            }
        }
        if (!failures.isEmpty()) {
            byte[] old = previous.map(FacManifest::encode).orElse(null);
            for (int node : done) {
                try {
                    if (old == null) {
                        nodes.get(node).delete(manifestKey);
                    } else {
                        nodes.get(node).put(manifestKey, old);
                    }
                } catch (RuntimeException ignored) {
                    // best effort: the failure below is what the caller must see
                }
            }
            throw new StorageException("Cannot store " + manifest.key() + ": writing its manifest failed on "
                    + String.join("; ", failures));
        }
        cache.put(manifest.key(), manifest);
    }

    /**
     * Rewrites the replicas of {@code manifest} that are missing, damaged or of another version (only the one on
     * {@code onlyNode} when it is not -1); adds what fails to {@code failures}. Returns the replicas written.
     */
    int repairReplicas(FacManifest manifest, int onlyNode, List<String> failures) {
        byte[] bytes = manifest.encode();
        String manifestKey = Placement.manifestKey(manifest.key());
        int written = 0;
        for (int node : placement.replicaNodes(manifest.key(), manifest.code())) {
            if (onlyNode >= 0 && node != onlyNode) {
                continue;
            }
            try {
                boolean sound;
                try {
                    FacManifest stored = FacManifest.decode(nodes.get(node).readAll(manifestKey), manifestKey);
                    sound = stored.generation().equals(manifest.generation());
                } catch (StorageException e) {
                    sound = false;
                }
                if (!sound) {
                    nodes.get(node).put(manifestKey, bytes);
                    written++;
                }
            } catch (RuntimeException e) {
                failures.add(manifest.key() + " manifest on " + nodes.name(node) + ": " + e.getMessage());
            }
        }
        return written;
    }

    /**
     * Forgets {@code key} and deletes its manifest from every node that may hold it: the replica nodes under the
     * store's code and, when {@code manifest} is known, under the code it was written with. Returns the nodes
     * where that failed, with why; the object comes back with such a node, so the caller must fail.
     */
    List<String> deleteReplicas(String key, Optional<FacManifest> manifest) {
        cache.remove(key);
        List<String> failures = new ArrayList<>();
        List<Integer> holders = new ArrayList<>(placement.replicaNodes(key, nodes.options().code()));
        manifest.ifPresent(m -> {
            for (int node : placement.replicaNodes(key, m.code())) {
                if (!holders.contains(node)) {
                    holders.add(node);
                }
            }
        });
        for (int node : holders) {
            try {
                nodes.get(node).delete(Placement.manifestKey(key));
            } catch (RuntimeException e) {
                failures.add(nodes.name(node) + ": " + e.getMessage());
            }
        }
        return failures;
    }

    /**
     * The keys of the stored objects that start with {@code prefix}, sorted: the manifests listed on every node, so
     * that an object is listed while any of its replicas is. Survives as many unlistable nodes as the code survives
     * lost ones.
     *
     * @throws StorageException if more nodes than that cannot be listed
     */
    List<String> keys(String prefix) {
        TreeSet<String> keys = new TreeSet<>();
        List<String> failures = new ArrayList<>();
        int reachable = 0;
        for (int i = 0; i < nodes.count(); i++) {
            try (Stream<ObjectInfo> listed = nodes.get(i).list(Placement.manifestListPrefix(prefix))) {
                listed.map(ObjectInfo::key)
                        .map(Placement::objectKeyOfManifest)
                        .flatMap(Optional::stream)
                        .filter(k -> k.startsWith(prefix))
                        .forEach(keys::add);
                reachable++;
            } catch (StorageException e) {
                failures.add(nodes.name(i) + ": " + e.getMessage());
            }
        }
        int tolerated = nodes.options().code().parityBlocks();
        if (failures.size() > tolerated || reachable == 0) {
            throw new StorageException("Cannot list '" + prefix + "': " + failures.size() + " nodes cannot be "
                    + "listed, more than the " + tolerated + " whose loss a listing survives: "
                    + String.join("; ", failures));
        }
        return new ArrayList<>(keys);
    }

    /** Forgets every cached manifest. */
    void clear() {
        cache.clear();
    }
}
