/**
 * The layout advisor: ranks layouts and their settings for a dataset and a weighted query workload by predicted
 * time, dollars or a trade-off, without ingesting anything.
 *
 * <p>The parts: {@link io.layoutbench.api.model.DatasetMetadata} holds a dataset's metadata and sample sizes; every
 * layout that implements {@link io.layoutbench.api.model.SupportsModelling} builds its own
 * {@link io.layoutbench.api.model.LayoutModel} over them with its writer's placement and its datasets' planner;
 * {@link io.layoutbench.advisor.Advisor} prices every plan with the cost model and ranks the settings;
 * {@code Reasons} says why. The command line renders the {@link io.layoutbench.advisor.Advice} ({@code layoutbench
 * advise}).
 *
 * <pre>{@code
 * DatasetMetadata data = DatasetMetadata.withSizesFrom("mini", metadataTable, "filesize_bytes");
 * Advice advice = Advisor.builder(data).build()
 *         .advise(Workload.parse("Q1=1,Q3=5,Q8=0.5", paperQueries), Objective.time(), false);
 * Recommendation best = advice.best();
 * }</pre>
 */
package io.layoutbench.advisor;
