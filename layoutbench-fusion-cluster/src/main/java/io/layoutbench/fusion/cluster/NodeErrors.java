package io.layoutbench.fusion.cluster;

import io.layoutbench.api.backend.AccessDeniedException;
import io.layoutbench.api.backend.ByteRange;
import io.layoutbench.api.backend.ObjectNotFoundException;
import io.layoutbench.api.backend.RangeNotSatisfiableException;
import io.layoutbench.api.backend.Retrier;
import io.layoutbench.api.backend.StorageException;
import io.layoutbench.api.backend.TransientStorageException;
import io.layoutbench.fusion.store.StripeUnavailableException;

import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.ErrorFlightMetadata;
import org.apache.arrow.flight.FlightRuntimeException;

/**
 * The library's storage exceptions as Flight status codes, and back. A node answers a failed request with:
 * <table>
 *   <caption>Status codes</caption>
 *   <tr><th>on the node</th><th>on the wire</th><th>at the client</th></tr>
 *   <tr><td>{@link ObjectNotFoundException}</td><td>NOT_FOUND</td><td>{@link ObjectNotFoundException}</td></tr>
 *   <tr><td>{@link RangeNotSatisfiableException}</td><td>INVALID_ARGUMENT with the object's size in the metadata
 *       {@value NodeProtocol#OBJECT_SIZE}</td><td>{@link RangeNotSatisfiableException}</td></tr>
 *   <tr><td>{@link AccessDeniedException}</td><td>UNAUTHORIZED</td><td>{@link AccessDeniedException}</td></tr>
 *   <tr><td>{@link TransientStorageException}</td><td>UNAVAILABLE (RESOURCE_EXHAUSTED with the metadata
 *       {@value NodeProtocol#THROTTLED} when throttled)</td><td>{@link TransientStorageException}</td></tr>
 *   <tr><td>a bad argument</td><td>INVALID_ARGUMENT</td><td>{@link StorageException}</td></tr>
 *   <tr><td>anything else, an {@link IllegalStateException} too (a bug, or a backend closed under the node)</td>
 *       <td>INTERNAL</td><td>{@link StorageException}</td></tr>
 * </table>
 * The description is the node's message, which names the key and the node's own backend; the client puts the
 * request (operation, node URI, key, range) before it. A node that cannot be reached (UNAVAILABLE), a call over its
 * deadline (TIMED_OUT), a cancelled call and a throttled backend are transient at the client. A RESOURCE_EXHAUSTED
 * without the throttled mark is gRPC refusing a message over its size limit: permanent, as a retry would fail alike.
 */
final class NodeErrors {

    private NodeErrors() {
    }

    /** {@code error}, thrown by a node's backend or by the node itself, as the status to answer with. */
    static FlightRuntimeException toFlight(Throwable error) {
        Throwable cause = Retrier.unwrap(error);
        if (cause instanceof FlightRuntimeException flight) {
            return flight;
        }
        String message = cause.getMessage() == null ? cause.toString() : cause.getMessage();
        CallStatus status;
        if (cause instanceof RangeNotSatisfiableException range) {
            ErrorFlightMetadata metadata = new ErrorFlightMetadata();
            metadata.insert(NodeProtocol.OBJECT_SIZE, Long.toString(range.objectSize()));
            status = CallStatus.INVALID_ARGUMENT.withMetadata(metadata);
        } else if (cause instanceof ObjectNotFoundException) {
            status = CallStatus.NOT_FOUND;
        } else if (cause instanceof AccessDeniedException) {
            status = CallStatus.UNAUTHORIZED;
        } else if (cause instanceof TransientStorageException transientError) {
            if (transientError.isThrottled()) {
                ErrorFlightMetadata metadata = new ErrorFlightMetadata();
                metadata.insert(NodeProtocol.THROTTLED, "1");
                status = CallStatus.RESOURCE_EXHAUSTED.withMetadata(metadata);
            } else {
                ErrorFlightMetadata metadata = new ErrorFlightMetadata();
                metadata.insert(NodeProtocol.BACKEND_FAULT, "1");
                status = CallStatus.UNAVAILABLE.withMetadata(metadata);
            }
        } else if (stripeUnavailable(cause) != null) {
            // An operator's chunk could not be rebuilt: the coordinator says which stripe and nodes, as for a read.
            StripeUnavailableException lost = stripeUnavailable(cause);
            message = lost.getMessage();
            ErrorFlightMetadata metadata = new ErrorFlightMetadata();
            metadata.insert(NodeProtocol.STRIPE_UNAVAILABLE, URLEncoder.encode(lost.key(), StandardCharsets.UTF_8)
                    + ";" + lost.stripe() + ";" + lost.unit() + ";"
                    + lost.missingNodes().stream().map(String::valueOf).collect(Collectors.joining(",")));
            status = CallStatus.INTERNAL.withMetadata(metadata);
        } else if (cause instanceof IllegalArgumentException) {
            status = CallStatus.INVALID_ARGUMENT;
        } else if (cause instanceof StorageException || cause instanceof IllegalStateException) {
            status = CallStatus.INTERNAL;   // a closed backend too: the node closes it only once its calls ended
        } else {
            status = CallStatus.INTERNAL;
            message = cause.toString();
        }
        return status.withDescription(message).withCause(cause).toRuntimeException();
    }

    /**
     * A node's answer {@code error} to the request {@code what} ({@code GET flight://host:port key [0, 100)}) as the
     * library's exception.
     *
     * @param range   the range asked for, to rebuild a {@link RangeNotSatisfiableException}; null for other requests
     * @param timeout the call's deadline, for the message of a call that ran over it
     */
    static StorageException fromFlight(FlightRuntimeException error, String what, String key, ByteRange range,
            Duration timeout) {
        CallStatus status = error.status();
        String why = status.description() == null || status.description().isEmpty() ? status.code().toString()
                : status.description();
        String message = what + ": " + why;
        if (status.metadata() != null && status.metadata().containsKey(NodeProtocol.STRIPE_UNAVAILABLE)) {
            StripeUnavailableException lost = stripeUnavailable(status.metadata().get(NodeProtocol.STRIPE_UNAVAILABLE),
                    message);
            if (lost != null) {
                lost.initCause(error);
                return lost;
            }
        }
        switch (status.code()) {
            case NOT_FOUND:
                return new ObjectNotFoundException(message, error);
            case INVALID_ARGUMENT: {
                String size = status.metadata() == null || !status.metadata().containsKey(NodeProtocol.OBJECT_SIZE)
                        ? null : status.metadata().get(NodeProtocol.OBJECT_SIZE);
                if (size != null && range != null) {
                    try {
                        // The message is the library's for every backend (its contract test says so); the cause
                        // names the node and the request.
                        RangeNotSatisfiableException pastEnd = new RangeNotSatisfiableException(key, range,
                                Long.parseLong(size));
                        pastEnd.initCause(new StorageException(message, error));
                        return pastEnd;
                    } catch (NumberFormatException e) {
                        return new StorageException(message + " (and the object size it sent, '" + size
                                + "', is not a number)", error);
                    }
                }
                return new StorageException(message, error);
            }
            case UNAUTHORIZED:
            case UNAUTHENTICATED:
                return new AccessDeniedException(message, error);
            case UNAVAILABLE:
                return new TransientStorageException(what + ": " + unavailable(status, why), error, false);
            case TIMED_OUT:
                return new TransientStorageException(what + ": no answer within the deadline of " + timeout.toMillis()
                        + " ms (" + why + ")", error, false);
            case RESOURCE_EXHAUSTED:
                if (status.metadata() != null && status.metadata().containsKey(NodeProtocol.THROTTLED)) {
                    return new TransientStorageException(what + ": the node's backend is throttled: " + why, error,
                            true);
                }
                return new StorageException(what + ": a message over the size limit of "
                        + NodeProtocol.MAX_MESSAGE_BYTES + " bytes, not retried (" + why + ")", error);
            case CANCELLED:
                return new TransientStorageException(message, error, false);
            default:
                return new StorageException(message, error);
        }
    }

    /** The {@link StripeUnavailableException} in {@code error}'s causes, or null. */
    private static StripeUnavailableException stripeUnavailable(Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause()) {
            if (t instanceof StripeUnavailableException lost) {
                return lost;
            }
        }
        return null;
    }

    /** The node's {@link StripeUnavailableException}, from its metadata; null if that is malformed. */
    private static StripeUnavailableException stripeUnavailable(String metadata, String message) {
        String[] fields = metadata.split(";", -1);
        try {
            List<Integer> nodes = fields[3].isEmpty() ? List.of()
                    : Arrays.stream(fields[3].split(",")).map(Integer::valueOf).toList();
            return new StripeUnavailableException(message, URLDecoder.decode(fields[0], StandardCharsets.UTF_8),
                    Integer.parseInt(fields[1]),
                    Integer.parseInt(fields[2]), nodes);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /**
     * What an UNAVAILABLE means: the node's backend failed transiently (the node answered, marking it
     * {@value NodeProtocol#BACKEND_FAULT}), or the node could not be reached or is stopping.
     */
    private static String unavailable(CallStatus status, String why) {
        boolean fromBackend = status.metadata() != null && status.metadata().containsKey(NodeProtocol.BACKEND_FAULT);
        return fromBackend ? "the node's backend failed transiently: " + why
                : "the node could not be reached or is stopping (" + why + ")";
    }
}
