package io.layoutbench.fusion.store;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.fusion.codec.CodeParameters;
import io.layoutbench.fusion.coding.CodingPlan;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * Everything needed to read one FAC-coded object back: how it was coded, where each of its blocks lies (which node)
 * with its checksums, and the chunk location map, which sends every byte range of the object to a data block and an
 * offset in it. Offsets are 64-bit, so objects may be larger than 4 GB. The Fusion paper keeps this "chunk location
 * map" beside the object and replicates it on k + 1 nodes; here it is stored on n - k + 1 nodes, which survives the
 * n - k lost nodes the code survives.
 *
 * <p>Stored in a small binary form ending in its own CRC32C, so a damaged replica is detected and another one read.
 * Immutable and thread-safe.
 *
 * <pre>{@code
 * FacManifest manifest = fac.manifest("tpch/lineitem.parquet");
 * for (FacManifest.Segment segment : manifest.segments()) {
 *     int node = manifest.block(segment.stripe(), segment.block()).node();
 * }
 * }</pre>
 */
public final class FacManifest {

    private static final int MAGIC = 0x4641434D;   // "FACM"
    private static final short VERSION = 1;
    /**
     * The version of a map of a {@link CodingPlan.Strategy#SINGLE_BLOCK} object, the same layout as version 1: a
     * library that knows only FAC and fixed blocks then refuses it naming the version, rather than reading a strategy
     * it does not know as a damaged map. Every other map is still written as version 1.
     */
    private static final short VERSION_SINGLE_BLOCK = 2;

    private final String key;
    private final String generation;
    private final long objectSize;
    private final String codec;
    private final CodeParameters code;
    private final int checksumUnit;
    private final int nodeCount;
    private final CodingPlan.Strategy strategy;
    private final String constructor;
    private final List<Stripe> stripes;
    private final List<Segment> segments;
    private final long[] segmentStarts;

    /**
     * One block of a stripe: data blocks are {@code 0 .. k), parity blocks {@code k .. n)}.
     */
    public static final class Block {
        private final int stripe;
        private final int index;
        private final int node;
        private final long length;
        private final int crc32c;
        private final int[] unitCrcs;

        Block(int stripe, int index, int node, long length, int crc32c, int[] unitCrcs) {
            this.stripe = stripe;
            this.index = index;
            this.node = node;
            this.length = length;
            this.crc32c = crc32c;
            this.unitCrcs = unitCrcs;
        }

        /** The stripe. */
        public int stripe() {
            return stripe;
        }

        /** Position in the stripe: data below k, parity from k. */
        public int index() {
            return index;
        }

        /** The node (index into the backend's node list) that stores it. */
        public int node() {
            return node;
        }

        /** Stored bytes; 0 for an empty data block, which is never stored. */
        public long length() {
            return length;
        }

        /** CRC32C of the whole block. */
        public int crc32c() {
            return crc32c;
        }

        /** Number of checksum units. */
        public int unitCount() {
            return unitCrcs.length;
        }

        int unitCrc(int unit) {
            return unitCrcs[unit];
        }

        @Override
        public String toString() {
            return "block " + index + " of stripe " + stripe + " (" + length + " bytes on node " + node + ")";
        }
    }

    /**
     * One stripe: its block size (the largest data block, and the length of each parity block) and its n blocks.
     */
    public record Stripe(int index, long blockSize, List<Block> blocks) {
        public Stripe {
            blocks = List.copyOf(blocks);
        }
    }

    /**
     * An entry of the chunk location map: bytes {@code [objectOffset, objectOffset + length)} of the object are bytes
     * {@code [blockOffset, blockOffset + length)} of data block {@code block} of stripe {@code stripe}.
     */
    public record Segment(long objectOffset, long length, int stripe, int block, long blockOffset) {
        /** The segment's range in the object. */
        public ByteRange objectRange() {
            return ByteRange.of(objectOffset, length);
        }
    }

    FacManifest(String key, String generation, long objectSize, String codec, CodeParameters code, int checksumUnit,
            int nodeCount, CodingPlan.Strategy strategy, String constructor, List<Stripe> stripes,
            List<Segment> segments) {
        this.key = requireNonNull(key, "key is null");
        this.generation = requireNonNull(generation, "generation is null");
        this.objectSize = objectSize;
        this.codec = requireNonNull(codec, "codec is null");
        this.code = requireNonNull(code, "code is null");
        this.checksumUnit = checksumUnit;
        this.nodeCount = nodeCount;
        this.strategy = requireNonNull(strategy, "strategy is null");
        this.constructor = requireNonNull(constructor, "constructor is null");
        this.stripes = List.copyOf(stripes);
        this.segments = List.copyOf(segments);
        this.segmentStarts = segments.stream().mapToLong(Segment::objectOffset).toArray();
        long position = 0;
        for (Segment segment : segments) {
            if (segment.objectOffset() != position) {
                throw new IllegalArgumentException("The location map of " + key + " has a hole or overlap at "
                        + position);
            }
            position += segment.length();
        }
        if (position != objectSize) {
            throw new IllegalArgumentException("The location map of " + key + " covers " + position + " of "
                    + objectSize + " bytes");
        }
    }

    /** The object's key. */
    public String key() {
        return key;
    }

    /** Identifies this version of the object; part of its block keys. */
    public String generation() {
        return generation;
    }

    /** The object's length. */
    public long objectSize() {
        return objectSize;
    }

    /** The codec's name. */
    public String codec() {
        return codec;
    }

    /** The erasure code. */
    public CodeParameters code() {
        return code;
    }

    /** Bytes per checksum unit. */
    public int checksumUnit() {
        return checksumUnit;
    }

    /** Nodes of the backend that wrote it. */
    public int nodeCount() {
        return nodeCount;
    }

    /** FAC or fixed-size blocks. */
    public CodingPlan.Strategy strategy() {
        return strategy;
    }

    /** The stripe constructor, or {@code fixed}. */
    public String constructor() {
        return constructor;
    }

    /** The stripes. */
    public List<Stripe> stripes() {
        return stripes;
    }

    /** Block {@code index} of stripe {@code stripe}. */
    public Block block(int stripe, int index) {
        return stripes.get(stripe).blocks().get(index);
    }

    /** The chunk location map, in object order. */
    public List<Segment> segments() {
        return segments;
    }

    /** Bytes of parity stored. */
    public long parityBytes() {
        return stripes.stream().mapToLong(s -> s.blockSize() * code.parityBlocks()).sum();
    }

    /** Extra parity over the code's optimum, as a fraction (see {@link CodingPlan#extraOverhead()}). */
    public double extraOverhead() {
        return objectSize == 0 ? 0
                : (double) code.dataBlocks() * stripes.stream().mapToLong(Stripe::blockSize).sum() / objectSize - 1;
    }

    /** The nodes holding bytes of {@code range} of the object, in order of first appearance. */
    public List<Integer> nodesHolding(ByteRange range) {
        List<Integer> nodes = new ArrayList<>();
        for (Piece piece : locate(range)) {
            int node = block(piece.stripe(), piece.block()).node();
            if (!nodes.contains(node)) {
                nodes.add(node);
            }
        }
        return nodes;
    }

    /**
     * A part of a read: bytes {@code [blockOffset, blockOffset + length)} of a data block go to {@code outputOffset}
     * of the result.
     */
    record Piece(int stripe, int block, long blockOffset, long length, long outputOffset) {
    }

    /** The pieces of {@code range}, neighbours in one block merged. */
    List<Piece> locate(ByteRange range) {
        List<Piece> pieces = new ArrayList<>();
        if (range.length() == 0) {
            return pieces;
        }
        int i = Arrays.binarySearch(segmentStarts, range.offset());
        if (i < 0) {
            i = -i - 2;
        }
        long position = range.offset();
        while (position < range.end()) {
            Segment segment = segments.get(i);
            long within = position - segment.objectOffset();
            long length = Math.min(segment.length() - within, range.end() - position);
            long blockOffset = segment.blockOffset() + within;
            long outputOffset = position - range.offset();
            Piece last = pieces.isEmpty() ? null : pieces.get(pieces.size() - 1);
            if (last != null && last.stripe() == segment.stripe() && last.block() == segment.block()
                    && last.blockOffset() + last.length() == blockOffset
                    && last.outputOffset() + last.length() == outputOffset) {
                pieces.set(pieces.size() - 1, new Piece(last.stripe(), last.block(), last.blockOffset(),
                        last.length() + length, last.outputOffset()));
            } else {
                pieces.add(new Piece(segment.stripe(), segment.block(), blockOffset, length, outputOffset));
            }
            position += length;
            i++;
        }
        return pieces;
    }

    /** The stored form. */
    byte[] encode() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256 + segments.size() * 32);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(MAGIC);
            out.writeShort(strategy == CodingPlan.Strategy.SINGLE_BLOCK ? VERSION_SINGLE_BLOCK : VERSION);
            out.writeUTF(key);
            out.writeUTF(generation);
            out.writeLong(objectSize);
            out.writeUTF(codec);
            out.writeInt(code.totalBlocks());
            out.writeInt(code.dataBlocks());
            out.writeInt(checksumUnit);
            out.writeInt(nodeCount);
            out.writeByte(strategy.ordinal());
            out.writeUTF(constructor);
            out.writeInt(stripes.size());
            for (Stripe stripe : stripes) {
                out.writeLong(stripe.blockSize());
                for (Block block : stripe.blocks()) {
                    out.writeInt(block.node);
                    out.writeLong(block.length);
                    out.writeInt(block.crc32c);
                    out.writeInt(block.unitCrcs.length);
                    for (int crc : block.unitCrcs) {
                        out.writeInt(crc);
                    }
                }
            }
            out.writeInt(segments.size());
            for (Segment segment : segments) {
                out.writeLong(segment.objectOffset());
                out.writeLong(segment.length());
                out.writeInt(segment.stripe());
                out.writeInt(segment.block());
                out.writeLong(segment.blockOffset());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        byte[] body = bytes.toByteArray();
        CRC32C crc = new CRC32C();
        crc.update(body);
        return ByteBuffer.allocate(body.length + 4).put(body).putInt((int) crc.getValue()).array();
    }

    /**
     * Parses a stored manifest.
     *
     * @param where names the replica in errors
     * @throws CorruptDataException if it is damaged or not a manifest
     */
    static FacManifest decode(ByteBuffer stored, String where) {
        byte[] bytes = new byte[stored.remaining()];
        stored.duplicate().get(bytes);
        if (bytes.length < 10) {
            throw new CorruptDataException("The manifest " + where + " is " + bytes.length + " bytes: truncated");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        int expected = ByteBuffer.wrap(bytes, bytes.length - 4, 4).getInt();
        if ((int) crc.getValue() != expected) {
            throw new CorruptDataException("The manifest " + where + " fails its checksum: damaged");
        }
        // A ByteBuffer, not a DataInputStream: a part file's map holds thousands of unit checksums and segments,
        // and a stream reads each int a byte at a time through synchronized calls (a tenth of a cold fac query).
        ByteBuffer in = ByteBuffer.wrap(bytes, 0, bytes.length - 4);
        try {
            if (in.getInt() != MAGIC) {
                throw new CorruptDataException("The object " + where + " is not a FAC manifest (bad magic)");
            }
            short version = in.getShort();
            if (version != VERSION && version != VERSION_SINGLE_BLOCK) {
                throw new CorruptDataException("The manifest " + where + " has version " + version
                        + "; this library reads versions " + VERSION + " and " + VERSION_SINGLE_BLOCK);
            }
            String key = readUtf(in);
            String generation = readUtf(in);
            long objectSize = in.getLong();
            String codec = readUtf(in);
            CodeParameters code = new CodeParameters(in.getInt(), in.getInt());
            int unit = in.getInt();
            int nodeCount = in.getInt();
            int strategyIndex = in.get();
            if (strategyIndex < 0 || strategyIndex >= CodingPlan.Strategy.values().length) {
                throw new CorruptDataException("The manifest " + where + " names coding strategy " + strategyIndex
                        + ", which this library does not know (written by a newer layoutbench, or damaged)");
            }
            CodingPlan.Strategy strategy = CodingPlan.Strategy.values()[strategyIndex];
            String constructor = readUtf(in);
            int stripeCount = in.getInt();
            List<Stripe> stripes = new ArrayList<>(stripeCount);
            for (int s = 0; s < stripeCount; s++) {
                long blockSize = in.getLong();
                List<Block> blocks = new ArrayList<>(code.totalBlocks());
                for (int b = 0; b < code.totalBlocks(); b++) {
                    int node = in.getInt();
                    long length = in.getLong();
                    int blockCrc = in.getInt();
                    int[] units = new int[in.getInt()];
                    for (int u = 0; u < units.length; u++) {
                        units[u] = in.getInt();
                    }
                    blocks.add(new Block(s, b, node, length, blockCrc, units));
                }
                stripes.add(new Stripe(s, blockSize, blocks));
            }
            int segmentCount = in.getInt();
            List<Segment> segments = new ArrayList<>(segmentCount);
            for (int i = 0; i < segmentCount; i++) {
                segments.add(new Segment(in.getLong(), in.getLong(), in.getInt(), in.getInt(), in.getLong()));
            }
            return new FacManifest(key, generation, objectSize, codec, code, unit, nodeCount, strategy, constructor,
                    stripes, segments);
        } catch (IOException | RuntimeException e) {
            if (e instanceof CorruptDataException corrupt) {
                throw corrupt;
            }
            throw new CorruptDataException("Cannot parse the manifest " + where + ": " + (e instanceof
                    java.nio.BufferUnderflowException ? "it ends too early" : e.getMessage()), e);
        }
    }

    /** A string as {@link DataOutputStream#writeUTF} wrote it: two bytes of length, then modified UTF-8. */
    private static String readUtf(ByteBuffer in) throws IOException {
        if (in.remaining() < 2) {
            throw new java.nio.BufferUnderflowException();
        }
        int length = Short.toUnsignedInt(in.getShort(in.position()));
        byte[] encoded = new byte[2 + length];
        in.get(encoded);
        return new DataInputStream(new ByteArrayInputStream(encoded)).readUTF();
    }

    @Override
    public String toString() {
        return "FAC manifest of " + key + " (" + objectSize + " bytes, " + code + ", " + stripes.size() + " stripes, "
                + CodingPlan.describe(strategy, constructor) + ", generation "
                + generation + ")";
    }
}
