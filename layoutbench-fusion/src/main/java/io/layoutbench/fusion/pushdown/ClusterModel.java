package io.layoutbench.fusion.pushdown;

import java.time.Duration;

/**
 * The network between the storage nodes and the coordinator, as the Fusion paper's testbed had it: every machine
 * has one full-duplex link of {@code linkGbps} (25 Gbps there), and each remote call costs {@code rpc} on top of its
 * transfer. Storage nodes run in this process; their work is timed for real, one operation at a time, and the
 * network time is added from this model, so results do not depend on how many cores this machine has.
 *
 * <pre>{@code
 * ClusterModel paper = ClusterModel.paper();                       // 25 Gbps, 100 µs per RPC
 * ClusterModel slow = new ClusterModel(10, Duration.ofMillis(1));
 * }</pre>
 *
 * @param linkGbps every machine's link bandwidth, in gigabits per second
 * @param rpc      fixed cost of one remote call (request and reply), beyond the transfer of its bytes
 */
public record ClusterModel(double linkGbps, Duration rpc) {

    public ClusterModel {
        if (!(linkGbps > 0) || Double.isInfinite(linkGbps)) {
            throw new IllegalArgumentException("linkGbps must be a positive number, got " + linkGbps);
        }
        if (rpc == null || rpc.isNegative()) {
            throw new IllegalArgumentException("rpc must be a duration >= 0, got " + rpc);
        }
    }

    /** The paper's setup: 25 Gbps links; 100 µs per RPC (the paper gives no figure; a loaded gRPC round trip). */
    public static ClusterModel paper() {
        return new ClusterModel(25, Duration.ofNanos(100_000));
    }

    /** Nanoseconds to move {@code bytes} over one link. */
    public long transferNanos(long bytes) {
        return (long) Math.ceil(bytes * 8.0 / linkGbps);
    }
}
