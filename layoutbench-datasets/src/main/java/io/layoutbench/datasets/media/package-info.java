/**
 * What a media file holds, from its headers alone: {@link io.layoutbench.datasets.media.MediaProbe} tells images,
 * audio, video, text and other files apart by their leading bytes and reads their dimensions, durations, sample
 * rates and channel counts into a {@link io.layoutbench.datasets.media.MediaInfo}.
 */
package io.layoutbench.datasets.media;
