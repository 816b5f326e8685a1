/**
 * The layout advisor behind {@code layoutbench advise}: ranks layouts and their settings for a weighted query
 * workload by predicted time, dollars or a trade-off, without ingesting anything.
 *
 * <p>The parts: {@link io.layoutbench.examples.advise.DatasetMetadata} holds a dataset's metadata and sample sizes;
 * a {@code LayoutModel} per layout replays the layout's writer over those sizes ({@code L2Model}: tar packing;
 * {@code L3Model} with {@code ParquetFileModel}, {@code ChunkModel} and {@code ParquetSizes}: parquet-java's pages,
 * row groups and encodings; {@code L1Model} and {@code MetadataTableModel}: objects and metadata tables) and plans
 * queries as the layout's planner does; {@link io.layoutbench.examples.advise.Advisor} prices every plan with the
 * cost model and ranks the settings; {@code Reasons} says why; {@link io.layoutbench.examples.advise.AdviceReport}
 * prints the table and writes JSON.
 *
 * <pre>{@code
 * DatasetMetadata mini = DatasetMetadata.synthetic(ImageNetScale.MINI, 42, false);
 * Advisor advisor = new Advisor(mini, NetworkProfiles.T3_MEDIUM, Prices.s3Standard(), 64, Progress.Factory.NONE);
 * Advice advice = advisor.advise(Workload.parse("Q1=1,Q3=5,Q8=0.5", "mini"), Objective.time(), false,
 *         Advisor.LAYOUTS);
 * System.out.print(AdviceReport.text(advice, 10));
 * }</pre>
 */
package io.layoutbench.examples.advise;
