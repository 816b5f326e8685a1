package io.layoutbench.spark;

import org.apache.spark.sql.connector.read.InputPartition;

/**
 * A task's positions [from, to) of a prepared result, and the result's id, which the task checks: a dataset
 * replaced between planning and reading is an error, not other samples.
 */
record LayoutbenchPartition(String resultId, long from, long to) implements InputPartition {
}
