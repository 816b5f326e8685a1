/**
 * Predictions before a dataset is written: {@link io.layoutbench.api.model.DatasetMetadata} (a dataset's metadata
 * and sample sizes), {@link io.layoutbench.api.model.LayoutModel} (a layout's plans over it) and
 * {@link io.layoutbench.api.model.SupportsModelling} (the layouts that build models of themselves). The cost model
 * ({@link io.layoutbench.api.cost.CostModel}) prices the plans; the layout advisor ranks them.
 */
package io.layoutbench.api.model;
