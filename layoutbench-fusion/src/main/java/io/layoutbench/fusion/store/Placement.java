package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.ObjectKeys;
import io.layoutbench.fusion.codec.CodeParameters;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * Where a FAC store keeps things on its N nodes: the key of every manifest and block, and the nodes that hold an
 * object's manifest replicas and each of its stripes. Both follow from the object key alone (a rotation from its
 * "home" node, {@code CRC32C(key) mod N}), so a reader finds an object without any directory, and the stripes of
 * an object spread over all N nodes.
 *
 * <ul>
 *   <li>manifest of {@code key}: {@code manifests/<key>.facm}, on nodes {@code h, h + 1, ...} (n - k + 1 of them);</li>
 *   <li>block {@code b} of stripe {@code s}: {@code blocks/<key>.fac/<generation>-s<s>-b<b>}, on node
 *       {@code h + s + b} (mod N).</li>
 * </ul>
 *
 * <p>Immutable and thread-safe.
 */
final class Placement {

    private static final String MANIFESTS = "manifests/";
    private static final String MANIFEST_SUFFIX = ".facm";
    private static final String BLOCKS = "blocks/";
    private static final String BLOCKS_SUFFIX = ".fac/";
    /** Room a block key needs beyond the object key: the prefix, suffix, generation, stripe and block numbers. */
    private static final int KEY_OVERHEAD = BLOCKS.length() + BLOCKS_SUFFIX.length() + 48;

    private final int nodeCount;

    Placement(int nodeCount) {
        this.nodeCount = nodeCount;
    }

    /**
     * Fails when {@code key}'s block keys would be longer than a node accepts.
     *
     * @throws IllegalArgumentException naming the key and the room its block keys need
     */
    static void checkKeyLength(String key) {
        if (key.getBytes(StandardCharsets.UTF_8).length > ObjectKeys.MAX_KEY_BYTES - KEY_OVERHEAD) {
            throw new IllegalArgumentException("Object key '" + key.substring(0, Math.min(60, key.length()))
                    + "...' is too long for FAC: its block keys need " + KEY_OVERHEAD + " of the "
                    + ObjectKeys.MAX_KEY_BYTES + " bytes a key may have");
        }
    }

    /** The node an object's placement starts from. */
    int home(String key) {
        CRC32C crc = new CRC32C();
        crc.update(key.getBytes(StandardCharsets.UTF_8));
        return (int) Long.remainderUnsigned(crc.getValue(), nodeCount);
    }

    /** How many manifest replicas an object coded with {@code code} has: enough to outlive n - k lost nodes. */
    int replicas(CodeParameters code) {
        return Math.min(nodeCount, code.parityBlocks() + 1);
    }

    /** The nodes that hold the manifest replicas of {@code key}, first the home node. */
    List<Integer> replicaNodes(String key, CodeParameters code) {
        List<Integer> result = new ArrayList<>();
        int home = home(key);
        for (int r = 0; r < replicas(code); r++) {
            result.add((home + r) % nodeCount);
        }
        return result;
    }

    /** The node of block {@code block} of stripe {@code stripe} of the object whose home is {@code home}. */
    int blockNode(int home, int stripe, int block) {
        return (home + stripe + block) % nodeCount;
    }

    static String manifestKey(String key) {
        return MANIFESTS + key + MANIFEST_SUFFIX;
    }

    /** The node-key prefix under which the manifests of the objects whose keys start with {@code prefix} lie. */
    static String manifestListPrefix(String prefix) {
        return MANIFESTS + prefix;
    }

    /** The object key of a node key listed under {@link #manifestListPrefix}, or empty when it is no manifest. */
    static Optional<String> objectKeyOfManifest(String nodeKey) {
        return nodeKey.endsWith(MANIFEST_SUFFIX)
                ? Optional.of(nodeKey.substring(MANIFESTS.length(), nodeKey.length() - MANIFEST_SUFFIX.length()))
                : Optional.empty();
    }

    /** The node-key prefix of every block of every generation of {@code key}. */
    static String blockPrefix(String key) {
        return BLOCKS + key + BLOCKS_SUFFIX;
    }

    static String blockKey(String key, String generation, int stripe, int block) {
        return blockPrefix(key) + generation + "-s" + stripe + "-b" + block;
    }

    static String blockKey(FacManifest manifest, int stripe, int block) {
        return blockKey(manifest.key(), manifest.generation(), stripe, block);
    }
}
