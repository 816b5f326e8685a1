package io.layoutbench.layouts.webdataset;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.layout.PlannedRequest;

import java.util.List;

/**
 * The members of one tar shard, found in place by {@link TarIndexer}, and the reads that found them.
 *
 * <p>{@code members} are the regular files, in archive order: the bytes samples are made of. {@code skipped} are
 * the members left out (directories, and links, devices and FIFOs when
 * {@link TarIndexOptions.SpecialMembers#SKIP} is chosen). {@code reads} are the requests sent, in order: a
 * {@code HEAD} when the shard's size was not given, then the ranged reads of the headers; a cost model can price
 * them, and {@link #bytesRead()} says how much of the shard was downloaded.
 *
 * <pre>{@code
 * TarIndex index = new TarIndexer(backend).index("train/shard-000000.tar");
 * System.out.printf("%d members, %d requests, %d of %d bytes read%n", index.members().size(),
 *         index.reads().size(), index.bytesRead(), index.shardSize());
 * }</pre>
 *
 * @param shardKey  the shard's object key
 * @param shardSize the shard's size in bytes
 * @param members   the regular files, in archive order
 * @param skipped   the members that are not samples, in archive order
 * @param reads     the requests indexing sent, in order
 */
public record TarIndex(String shardKey, long shardSize, List<TarMember> members, List<TarMember> skipped,
        List<PlannedRequest> reads) {

    public TarIndex {
        requireNonNull(shardKey, "shardKey is null");
        members = List.copyOf(requireNonNull(members, "members is null"));
        skipped = List.copyOf(requireNonNull(skipped, "skipped is null"));
        reads = List.copyOf(requireNonNull(reads, "reads is null"));
        if (shardSize < 0) {
            throw new IllegalArgumentException("Size of shard " + shardKey + " must be >= 0, got " + shardSize);
        }
        for (TarMember member : members) {
            if (member.type() != TarMember.Type.REGULAR) {
                throw new IllegalArgumentException("Member '" + member.name() + "' of shard " + shardKey + " is a "
                        + member.type() + "; only regular files are members, others are skipped");
            }
            if (member.data().end() > shardSize) {
                throw new IllegalArgumentException("Member '" + member.name() + "' of shard " + shardKey
                        + " has data " + member.data() + " past the shard's end " + shardSize);
            }
        }
    }

    /** Bytes downloaded to build the index. */
    public long bytesRead() {
        return reads.stream().mapToLong(PlannedRequest::bytes).sum();
    }
}
