/**
 * Image format detection and dimensions from file headers, without decoding:
 * {@link io.layoutbench.datasets.image.ImageHeaders}.
 */
package io.layoutbench.datasets.image;
