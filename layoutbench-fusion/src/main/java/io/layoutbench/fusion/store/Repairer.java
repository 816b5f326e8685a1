package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.backend.StorageException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Repairs what nodes lost: rebuilds blocks and manifest replicas that are missing or damaged, for one object, for
 * all, or for everything a lost node held (onto its replacement). A block is rebuilt 4 MiB at a time into a
 * {@link Spool} (memory or a temporary file): its own intact checksum units are kept, and each other unit is decoded
 * from k blocks of its stripe whose same unit is intact (so blocks damaged in different units do not add up). It is
 * written only once its whole CRC32C matches the manifest's, so a repair never stores bytes it has not checked.
 * Repairs go on past what cannot be repaired and report it.
 *
 * <p>Thread-safe: it keeps no state of its own. Two repairs of the same object may both rewrite a block, with the
 * same bytes.
 */
final class Repairer {

    /** Decoding window of repairs: whole blocks are rebuilt this many bytes at a time (rounded to units). */
    private static final int REBUILD_WINDOW = 4 << 20;

    private final FacNodes nodes;
    private final ManifestStore manifests;
    private final BlockReader reader;

    Repairer(FacNodes nodes, ManifestStore manifests, BlockReader reader) {
        this.nodes = nodes;
        this.manifests = manifests;
        this.reader = reader;
    }

    /** Checks every block and manifest replica of {@code key} and rebuilds those that are missing or damaged. */
    RepairReport repairObject(String key) {
        List<String> failures = new ArrayList<>();
        FacManifest manifest;
        try {
            manifest = ObjectBackend.await(manifests.load(key));
        } catch (StorageException e) {
            return new RepairReport(1, 0, 0, 0, 0, List.of(key + ": " + e.getMessage()));
        }
        long checked = 0;
        long rebuilt = 0;
        long bytes = 0;
        for (FacManifest.Stripe stripe : manifest.stripes()) {
            for (FacManifest.Block block : stripe.blocks()) {
                if (block.length() == 0) {
                    continue;
                }
                checked++;
                if (blockIsSound(manifest, block)) {
                    continue;
                }
                try {
                    bytes += rebuildBlock(manifest, block, true);
                    rebuilt++;
                } catch (RuntimeException e) {
                    failures.add(key + " " + block + ": " + Futures.unwrap(e).getMessage());
                }
            }
        }
        int manifestsWritten = manifests.repairReplicas(manifest, -1, failures);
        return new RepairReport(1, checked, rebuilt, bytes, manifestsWritten, failures);
    }

    /** {@link #repairObject} of every stored object, summed. */
    RepairReport repairAll() {
        RepairReport total = new RepairReport(0, 0, 0, 0, 0, List.of());
        for (String key : manifests.keys("")) {
            total = add(total, repairObject(key));
        }
        return total;
    }

    /**
     * Rebuilds every block and manifest replica node {@code node} should hold, without reading what it holds: for a
     * node that was just replaced by an empty one.
     */
    RepairReport rebuildNode(int node) {
        List<String> failures = new ArrayList<>();
        List<String> keys = manifests.keys("");
        long rebuilt = 0;
        long bytes = 0;
        int manifestsWritten = 0;
        for (String key : keys) {
            FacManifest manifest;
            try {
                manifest = ObjectBackend.await(manifests.load(key));
            } catch (StorageException e) {
                failures.add(key + ": " + e.getMessage());
                continue;
            }
            for (FacManifest.Stripe stripe : manifest.stripes()) {
                for (FacManifest.Block block : stripe.blocks()) {
                    if (block.node() != node || block.length() == 0) {
                        continue;
                    }
                    try {
                        bytes += rebuildBlock(manifest, block, false);
                        rebuilt++;
                    } catch (RuntimeException e) {
                        failures.add(key + " " + block + ": " + Futures.unwrap(e).getMessage());
                    }
                }
            }
            manifestsWritten += manifests.repairReplicas(manifest, node, failures);
        }
        return new RepairReport(keys.size(), 0, rebuilt, bytes, manifestsWritten, failures);
    }

    /** Whether the whole block can be read and passes its checksums. */
    private boolean blockIsSound(FacManifest manifest, FacManifest.Block block) {
        long window = rebuildWindow(manifest.checksumUnit());
        try {
            for (long from = 0; from < block.length(); from += window) {
                ObjectBackend.await(reader.readVerified(manifest, block, from,
                        Math.min(block.length(), from + window)));
            }
            return true;
        } catch (StorageException e) {
            return false;
        }
    }

    /**
     * Decodes a whole block from the rest of its stripe, checks it and writes it to its node; returns bytes.
     *
     * @param keepOwnUnits whether to read the block itself and keep its intact units (not for a replaced node,
     *                     which holds nothing)
     */
    private long rebuildBlock(FacManifest manifest, FacManifest.Block block, boolean keepOwnUnits) {
        FacOptions options = nodes.options();
        long window = rebuildWindow(manifest.checksumUnit());
        try (Spool spool = Spool.allocate(block.length(), options.memorySpoolLimit(), options.tempDirectory())) {
            CRC32C crc = new CRC32C();
            for (long from = 0; from < block.length(); from += window) {
                long length = Math.min(window, block.length() - from);
                // The block's own intact units are kept; only its damaged or missing ones are decoded.
                BlockReader.UnitRead own = null;
                String why = "block " + block.index() + " on node " + block.node() + ": on the replaced node";
                if (keepOwnUnits) {
                    try {
                        own = ObjectBackend.await(reader.readUnits(manifest, block, from, from + length));
                    } catch (RuntimeException e) {
                        why = BlockReader.describe(block, Futures.unwrap(e));
                    }
                }
                ByteBuffer bytes = ObjectBackend.await(reader.reconstruct(manifest, block.stripe(), block.index(),
                        from, length, own, why));
                byte[] array = new byte[bytes.remaining()];
                bytes.get(array);
                crc.update(array);
                spool.write(from, array, 0, array.length);
            }
            if ((int) crc.getValue() != block.crc32c()) {
                throw new CorruptDataException("The rebuilt " + block + " of " + manifest.key()
                        + " does not match its CRC32C");
            }
            try (InputStream in = spool.source().stream(0, block.length())) {
                nodes.get(block.node()).put(Placement.blockKey(manifest, block.stripe(), block.index()), in,
                        block.length());
            } catch (IOException e) {
                throw new StorageException("Cannot write the rebuilt " + block + " of " + manifest.key(), e);
            }
        }
        return block.length();
    }

    /** The rebuild window in whole checksum units, at least one, so that every read is checked unit by unit. */
    private static long rebuildWindow(int unit) {
        return Math.max(unit, (long) REBUILD_WINDOW / unit * unit);
    }

    private static RepairReport add(RepairReport a, RepairReport b) {
        List<String> failures = new ArrayList<>(a.failures());
        failures.addAll(b.failures());
        return new RepairReport(a.objects() + b.objects(), a.blocksChecked() + b.blocksChecked(),
                a.blocksRebuilt() + b.blocksRebuilt(), a.bytesWritten() + b.bytesWritten(),
                a.manifestsWritten() + b.manifestsWritten(), failures);
    }
}
