/**
 * An object store behind a simulated network: {@link io.layoutbench.backend.simulated.SimulatedNetworkBackend}
 * wraps a fast backend and delays its reads as the {@link io.layoutbench.api.network.NetworkModel} of a {@link
 * io.layoutbench.api.network.NetworkProfile} says, so layouts can be benchmarked for a client instance without one.
 *
 * <pre>{@code
 * ObjectBackend s3Like = SimulatedNetworkBackend.wrap(new MemoryBackend(), "c5.large");
 * }</pre>
 */
package io.layoutbench.backend.simulated;
