package io.layoutbench.datasets.media;

import java.util.Locale;

/**
 * What kind of media a file holds, as {@link MediaProbe} tells it from the file's leading bytes (its extension only
 * when they say nothing). Stored lower-case in a {@code media_type} column, so a query reads
 * {@code media_type = 'audio'}.
 *
 * <pre>{@code
 * MediaInfo info = MediaProbe.probe(Path.of("clips/0001.flac"));
 * if (info.mediaType() == MediaType.AUDIO) {
 *     System.out.println(info.durationSeconds() + " s at " + info.sampleRate() + " Hz");
 * }
 * }</pre>
 */
public enum MediaType {
    /** A still image: JPEG, PNG, GIF, BMP, WebP (dimensions read); TIFF, HEIF, AVIF (recognised only). */
    IMAGE,
    /** Sound: WAV, FLAC, Ogg Vorbis, Opus, MP3, MP4 without a video track (read); AIFF, other Ogg (recognised). */
    AUDIO,
    /** Moving pictures: MP4 and QuickTime (read); AVI, Matroska, WebM, Ogg Theora (recognised only). */
    VIDEO,
    /** Text: a known text extension ({@code .txt}, {@code .json}, {@code .csv} ...) or valid UTF-8 content. */
    TEXT,
    /** Anything else: stored as bytes, described by its size alone. */
    OTHER;

    /** The name a metadata column holds: {@code "audio"}. */
    public String columnValue() {
        return name().toLowerCase(Locale.ROOT);
    }
}
