/**
 * Fusion as a cluster, first slice: storage nodes as separate servers over Arrow Flight. A
 * {@link io.layoutbench.fusion.cluster.StorageNodeServer} serves one backend (a directory, a bucket) on a port; a
 * {@link io.layoutbench.fusion.cluster.FlightNodeBackend} ({@code flight://host:port}) is its client, an ordinary
 * {@link io.layoutbench.api.backend.ObjectBackend}, so the FAC store and the {@code fac} layout run over remote nodes
 * unchanged. {@link io.layoutbench.fusion.cluster.StorageNodeMain} runs a node as a process of its own,
 * {@link io.layoutbench.fusion.cluster.NodeProcess} and {@link io.layoutbench.fusion.cluster.LocalCluster} start and
 * stop such processes, and {@link io.layoutbench.fusion.cluster.ClusterFile} records them ({@code layoutbench fusion
 * cluster start}). Pushdown runs on the nodes: {@link io.layoutbench.fusion.cluster.FlightNodeOperators} sends each
 * of a query's operators to the server holding its chunk, which runs it on its blocks (a stand-in rebuilding the chunk
 * when that server is down), so the process that queries is the coordinator, a Flight client (docs/FUSION.md).
 *
 * <pre>{@code
 * List<StorageNodeServer> servers = new ArrayList<>();
 * List<ObjectBackend> nodes = new ArrayList<>();
 * for (int i = 0; i < 9; i++) {
 *     StorageNodeServer server = StorageNodeServer.open(root.resolve("node-" + i),
 *             StorageNodeServer.Options.defaults());
 *     servers.add(server);
 *     nodes.add(ObjectBackends.open(server.uri().toString()));
 * }
 * try (FacBackend fac = FacBackend.create(nodes, FacOptions.defaults(), true)) {
 *     fac.put("tpch/lineitem.parquet", Path.of("lineitem.parquet"));
 * }
 * servers.forEach(StorageNodeServer::close);
 * }</pre>
 */
package io.layoutbench.fusion.cluster;
