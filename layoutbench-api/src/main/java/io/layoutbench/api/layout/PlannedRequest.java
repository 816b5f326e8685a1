package io.layoutbench.api.layout;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.metrics.RequestKind;

/**
 * One request a query will send: its kind, object and byte range, and whether it costs a round trip of its own.
 * Plans are what the cost model prices before a query runs.
 *
 * <pre>{@code
 * PlannedRequest get = new PlannedRequest(RequestKind.RANGE_GET, "l2/shard-000003.tar", ByteRange.of(512, 110_000));
 * PlannedRequest rides = get.withSharing(PlannedRequest.Sharing.SHARED);   // rides.roundTrip(true) == false
 * }</pre>
 *
 * <p>Two requests of the same object and range but different {@link Sharing} are different values: a plan whose
 * requests a store shares does not equal the same requests planned for a store that does not.
 *
 * @param kind    request kind
 * @param key     object key
 * @param range   bytes read (for GET, the whole object)
 * @param sharing whether the store below answers it from a read an earlier request of the same query sent
 */
public record PlannedRequest(RequestKind kind, String key, ByteRange range, Sharing sharing) {
    public PlannedRequest {
        requireNonNull(kind, "kind is null");
        requireNonNull(key, "key is null");
        requireNonNull(range, "range is null");
        requireNonNull(sharing, "sharing is null");
    }

    /** A request with a round trip of its own, as most are. */
    public PlannedRequest(RequestKind kind, String key, ByteRange range) {
        this(kind, key, range, Sharing.NONE);
    }

    /** Bytes this request transfers. */
    public long bytes() {
        return range.length();
    }

    /** This request with {@code sharing}. */
    public PlannedRequest withSharing(Sharing sharing) {
        return new PlannedRequest(kind, key, range, sharing);
    }

    /**
     * Whether this request waits for a round trip of its own on a cold run ({@code cold}) or a warm one. The request
     * and its bytes are the query's either way; what a shared one does not add is the wait.
     */
    public boolean roundTrip(boolean cold) {
        return switch (sharing) {
            case NONE -> true;
            case SHARED -> false;
            case SHARED_WHEN_COLD -> !cold;
        };
    }

    /**
     * Whether a store answers a request from bytes another request of the same query brought. A store that keeps the
     * checked units of small reads for the rest of a query (the FAC store's checksum units, which pack many small
     * Parquet chunks side by side) sends no read of its own for a request whose units an earlier one fetched.
     *
     * <pre>{@code
     * boolean waitsWhenWarm = request.withSharing(Sharing.SHARED_WHEN_COLD).roundTrip(false);   // true
     * }</pre>
     */
    public enum Sharing {
        /** The request has its own round trip. */
        NONE,
        /** An earlier data request of the query, or a metadata request before it, brings every byte it needs. */
        SHARED,
        /**
         * Only a cold run's metadata requests bring the bytes it needs (a warm run does not send them): shared when
         * cold, its own round trip when warm.
         */
        SHARED_WHEN_COLD
    }
}
