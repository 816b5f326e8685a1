/**
 * The network between a client and the object store, as numbers and as a model: {@link
 * io.layoutbench.api.network.NetworkProfile} (latency, throughput, host bandwidth, connection pool, hourly price),
 * the named presets of {@link io.layoutbench.api.network.NetworkProfiles}, the {@link
 * io.layoutbench.api.network.NetworkModel} that turns a profile into request timings (shared by the simulated
 * backend and the cost model), and the {@link io.layoutbench.api.network.SimulationClock}s that drive simulated time:
 * real, or virtual for exact, sleep-free tests.
 *
 * <pre>{@code
 * Duration t = NetworkModel.predict(NetworkProfiles.get("t3.medium"), List.of(110_000L, 110_000L), 2);
 * }</pre>
 */
package io.layoutbench.api.network;
