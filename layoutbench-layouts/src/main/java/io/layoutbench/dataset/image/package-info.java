/**
 * Image format detection and dimensions from file headers, without decoding:
 * {@link io.layoutbench.dataset.image.ImageHeaders}.
 */
package io.layoutbench.dataset.image;
