package io.layoutbench.fusion.store;

import io.layoutbench.api.backend.StorageException;

import java.util.List;

/**
 * More blocks of a stripe are lost than the code can rebuild: the bytes asked for cannot be read, and none are
 * returned. The message names the object, the stripe, the range, the blocks that could not be used with their nodes
 * and why, and how many the code needs.
 *
 * <pre>{@code
 * catch (StripeUnavailableException e) { alert("nodes " + e.missingNodes() + " lost stripe " + e.stripe()); }
 * }</pre>
 */
public class StripeUnavailableException extends StorageException {
    private static final long serialVersionUID = 1L;

    private final String key;
    private final int stripe;
    private final List<Integer> missingNodes;

    public StripeUnavailableException(String message, String key, int stripe, List<Integer> missingNodes) {
        super(message);
        this.key = key;
        this.stripe = stripe;
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

    /** The nodes whose blocks of the stripe could not be used, in block order. */
    public List<Integer> missingNodes() {
        return missingNodes;
    }
}
