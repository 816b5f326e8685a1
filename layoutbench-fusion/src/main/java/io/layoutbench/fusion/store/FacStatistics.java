package io.layoutbench.fusion.store;

/**
 * Counts of what a {@link FacBackend}'s reads did, since it was opened.
 *
 * @param blockReads        requests for ranges of blocks sent to nodes
 * @param bytesFromNodes    bytes those requests returned
 * @param degradedReads     parts of reads whose data block could not be used and were rebuilt from other blocks
 * @param decodedBytes      bytes rebuilt by decoding
 * @param checksumFailures  block ranges whose CRC32C did not match
 * @param failedBlockReads  block reads that failed (missing block, node down)
 */
public record FacStatistics(long blockReads, long bytesFromNodes, long degradedReads, long decodedBytes,
        long checksumFailures, long failedBlockReads) {

    @Override
    public String toString() {
        return blockReads + " block reads (" + bytesFromNodes + " bytes), " + degradedReads + " degraded reads ("
                + decodedBytes + " bytes decoded), " + checksumFailures + " checksum failures, " + failedBlockReads
                + " failed block reads";
    }
}
