package io.layoutbench.fusion.store;

import static java.util.Objects.requireNonNull;

import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Counts of what a {@link FacBackend}'s reads did, since it was opened.
 *
 * @param blockReads        requests for ranges of blocks sent to nodes
 * @param bytesFromNodes    bytes those requests returned
 * @param degradedReads     parts of reads whose data block could not be used and were rebuilt from other blocks
 * @param decodedBytes      bytes rebuilt by decoding
 * @param checksumFailures  checksum units (or truncated block ranges) whose CRC32C did not match
 * @param failedBlockReads  block reads that failed (missing block, node down)
 * @param nodesRead         the nodes that answered a block read with bytes, ascending
 * @param nodesUnusable     the nodes whose block reads failed or returned damaged bytes, each with the first reason
 *                          ({@code block 1 of stripe 0: missing}), ascending
 */
public record FacStatistics(long blockReads, long bytesFromNodes, long degradedReads, long decodedBytes,
        long checksumFailures, long failedBlockReads, Set<Integer> nodesRead, Map<Integer, String> nodesUnusable) {

    public FacStatistics {
        nodesRead = Collections.unmodifiableSet(new TreeSet<>(requireNonNull(nodesRead, "nodesRead is null")));
        nodesUnusable = Collections.unmodifiableMap(new TreeMap<>(requireNonNull(nodesUnusable,
                "nodesUnusable is null")));
    }

    @Override
    public String toString() {
        return blockReads + " block reads (" + bytesFromNodes + " bytes), " + degradedReads + " degraded reads ("
                + decodedBytes + " bytes decoded), " + checksumFailures + " checksum failures, " + failedBlockReads
                + " failed block reads";
    }
}
