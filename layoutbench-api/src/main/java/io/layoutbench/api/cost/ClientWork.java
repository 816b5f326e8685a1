package io.layoutbench.api.cost;

/**
 * The client's own work in a query, which no network model sees: checking and handing over the sample bytes it
 * receives (CRC32C, copies) and, on a cold client, parsing footers and decoding metadata columns. The cost model adds
 * it to the network time: on a small instance the client's cores also drive the transfers, so the two overlap little.
 *
 * <p>The defaults were measured on a 2-vCPU VM (the size of a t3.medium) with the network taken out, which leaves
 * only this work ({@code ./layoutbench bench --scale mini --layouts l2,l3 --mode optimized --profile none --reps 3}):
 * the workload's 359 MB of samples took 0.24 to 0.25 s of client work (about 1.45 GB/s), and a cold client's 9 MB
 * (l2) to 20 MB (l3) of metadata 0.16 to 0.25 s more (55 to 80 MB/s; 65 MB/s is taken). Measure your own client the
 * same way and pass its rates, or use {@link #NONE} to predict the network alone.
 *
 * <pre>{@code
 * CostModel model = new CostModel(Prices.s3Standard(), NetworkProfiles.get("c8gb.large"))
 *         .withClientWork(new ClientWork(2.0e9, 80e6));
 * }</pre>
 *
 * @param payloadBytesPerSecond  sample bytes the client checks and hands over per second; positive, or infinite
 * @param metadataBytesPerSecond metadata bytes a cold client reads and decodes per second; positive, or infinite
 */
public record ClientWork(double payloadBytesPerSecond, double metadataBytesPerSecond) {

    /** No client work: predictions are the network's alone. */
    public static final ClientWork NONE = new ClientWork(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);

    /** The rates measured on a 2-vCPU VM (see the class comment); the cost model's default. */
    public static final ClientWork TWO_VCPU = new ClientWork(1.45e9, 65e6);

    public ClientWork {
        if (!(payloadBytesPerSecond > 0) || !(metadataBytesPerSecond > 0)) {
            throw new IllegalArgumentException("Client work rates must be positive (or infinite), got "
                    + payloadBytesPerSecond + " payload and " + metadataBytesPerSecond + " metadata bytes per second");
        }
    }

    /** Seconds of client work for {@code payloadBytes} of samples and {@code metadataBytes} of cold metadata. */
    public double seconds(long payloadBytes, long metadataBytes) {
        return payloadBytes / payloadBytesPerSecond + metadataBytes / metadataBytesPerSecond;
    }
}
