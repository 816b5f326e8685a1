package io.layoutbench.api.cost;

import static java.util.Objects.requireNonNull;

import java.time.Duration;

/**
 * The client's own work in a query, beside the network's time: checking and handing over the sample bytes it
 * receives (CRC32C, copies), on a cold client parsing footers and decoding metadata columns, and sending each
 * request. The cost model adds it to the network time: on a small instance the client's cores also drive the
 * transfers, so the two overlap little.
 *
 * <p>The defaults were measured on a 2-vCPU VM (the size of a t3.medium) with the network taken out, which leaves
 * only this work ({@code ./layoutbench bench --scale mini --layouts l2,l3 --mode optimized --profile none --reps 3}):
 * the workload's 359 MB of samples took 0.24 to 0.25 s of client work (about 1.45 GB/s), and a cold client's 9 MB
 * (l2) to 20 MB (l3) of metadata 0.16 to 0.25 s more (55 to 80 MB/s; 65 MB/s is taken). Measure your own client the
 * same way and pass its rates, or use {@link #NONE} to predict the network alone.
 *
 * <p>Each request also takes the client's time ({@code perRequest}): building and sending it, one at a time, and
 * handling its answer. It spaces the requests a window sends at once, so a query of one window of many reads starts
 * its last read late, and it adds to the work of a query that its client's cores, not the network, bound. The default
 * 20 µs was measured on the same VM over the simulated c8gb.large network: l1's Q4 at mini sends its 390 requests
 * (130 reads raced three ways) over 7.8 ms. Without it, that query was predicted 13 ms under its 61 ms, and Q8 (2,600
 * requests, bound by the client's cores there) 17-25% under.
 *
 * <pre>{@code
 * CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.get("c8gb.large"))
 *         .withClientWork(new ClientWork(2.0e9, 80e6, Duration.ofNanos(15_000)));
 * }</pre>
 *
 * @param payloadBytesPerSecond  sample bytes the client checks and hands over per second; positive, or infinite
 * @param metadataBytesPerSecond metadata bytes a cold client reads and decodes per second; positive, or infinite
 * @param perRequest             the client's own time per request it sends; at least zero
 */
public record ClientWork(double payloadBytesPerSecond, double metadataBytesPerSecond, Duration perRequest) {

    /** No client work: predictions are the network's alone. */
    public static final ClientWork NONE = new ClientWork(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);

    /** The rates measured on a 2-vCPU VM (see the class comment); the cost model's default. */
    public static final ClientWork TWO_VCPU = new ClientWork(1.45e9, 65e6, Duration.ofNanos(20_000));

    public ClientWork {
        requireNonNull(perRequest, "perRequest is null");
        if (!(payloadBytesPerSecond > 0) || !(metadataBytesPerSecond > 0) || perRequest.isNegative()) {
            throw new IllegalArgumentException("Client work must be positive rates (or infinite) and a time per "
                    + "request of at least zero, got " + payloadBytesPerSecond + " payload and "
                    + metadataBytesPerSecond + " metadata bytes per second and " + perRequest + " per request");
        }
    }

    /** Client work of the given rates, with no time of its own per request (each request's work is in the rates). */
    public ClientWork(double payloadBytesPerSecond, double metadataBytesPerSecond) {
        this(payloadBytesPerSecond, metadataBytesPerSecond, Duration.ZERO);
    }

    /**
     * Seconds of the client's own work on {@code requests} requests it sends (sending each, handling its answer).
     *
     * <pre>{@code
     * double seconds = ClientWork.TWO_VCPU.requestSeconds(390);   // 0.0078: l1's Q4 raced three ways
     * }</pre>
     */
    public double requestSeconds(long requests) {
        return requests * (perRequest.getSeconds() + perRequest.getNano() / 1e9);
    }

    /** Seconds of client work for {@code payloadBytes} of samples and {@code metadataBytes} of cold metadata. */
    public double seconds(long payloadBytes, long metadataBytes) {
        return payloadBytes / payloadBytesPerSecond + metadataBytes / metadataBytesPerSecond;
    }
}
