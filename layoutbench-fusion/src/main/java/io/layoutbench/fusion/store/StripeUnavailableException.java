package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.StorageException;

import java.util.List;

/**
 * More blocks of a stripe are lost than the code can rebuild: the bytes asked for cannot be read, and none are
 * returned. Blocks are rebuilt checksum unit by checksum unit, so this means that one unit has more than n - k
 * blocks missing or damaged there. The message names the object, the stripe, the unit, the range, the blocks that
 * could not be used with their nodes and why, and how many the code needs.
 *
 * <pre>{@code
 * catch (StripeUnavailableException e) { alert("nodes " + e.missingNodes() + " lost stripe " + e.stripe()); }
 * }</pre>
 */
public class StripeUnavailableException extends StorageException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final int stripe;
    private final int unit;
    private final List<Integer> missingNodes;

    public StripeUnavailableException(String message, String key, int stripe, List<Integer> missingNodes) {
        this(message, key, stripe, -1, missingNodes);
    }

    /**
     * @param unit the checksum unit (0-based, in the stripe's blocks) that has too few usable blocks, or -1 when it
     *             is not known
     */
    public StripeUnavailableException(String message, String key, int stripe, int unit, List<Integer> missingNodes) {
        super(message);
        this.key = key;
        this.stripe = stripe;
        this.unit = unit;
        this.missingNodes = List.copyOf(missingNodes);
    }

    /** The object. */
    public String key() {
        return key;
    }

    /** The stripe that cannot be read. */
    public int stripe() {
        return stripe;
    }

    /**
     * The checksum unit of the stripe's blocks that cannot be rebuilt (blocks are read and rebuilt unit by unit), or
     * -1 when not known.
     */
    public int unit() {
        return unit;
    }

    /** The nodes whose blocks of the stripe could not be used (in that unit), in block order. */
    public List<Integer> missingNodes() {
        return missingNodes;
    }
}
