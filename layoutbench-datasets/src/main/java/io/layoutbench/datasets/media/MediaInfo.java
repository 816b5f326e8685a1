package io.layoutbench.datasets.media;

import static java.util.Objects.requireNonNull;

/**
 * What a media file's headers say: its kind, its format and the facts that apply to it, each null when it does not
 * apply or is not known. An image has {@code width} and {@code height}; audio has {@code durationSeconds},
 * {@code sampleRate} and {@code channels}; a video has {@code durationSeconds}, {@code width} and {@code height},
 * and the sample rate and channels of its first audio track if it has one. Text and other files have no facts. A
 * file whose header could not be read has its kind and format and no facts ({@link #of(MediaType, String)}).
 *
 * <pre>{@code
 * MediaInfo clip = MediaInfo.audio("flac", 1.5, 16_000, 1);
 * MediaInfo frame = MediaInfo.image("png", 640, 480);
 * MediaInfo damaged = MediaInfo.of(MediaType.AUDIO, "wav");   // header unreadable: no facts
 * }</pre>
 *
 * @param mediaType       the kind of media
 * @param format          the container or file format in lower case: {@code jpeg}, {@code png}, {@code wav},
 *                        {@code flac}, {@code ogg} (Vorbis), {@code opus}, {@code mp3}, {@code mp4}, {@code txt},
 *                        {@code json} ...; letters and digits, 1 to 16 of them
 * @param width           pixels across, at least 1; null unless an image or a video
 * @param height          pixels down, at least 1; null unless an image or a video
 * @param durationSeconds playing time in seconds, finite and not negative; null unless audio or video
 * @param sampleRate      audio samples a second per channel, at least 1; null unless audio or a video's sound
 * @param channels        audio channels, at least 1; null unless audio or a video's sound
 */
public record MediaInfo(MediaType mediaType, String format, Integer width, Integer height, Double durationSeconds,
                        Integer sampleRate, Integer channels) {

    private static final int MAX_FORMAT_LENGTH = 16;

    public MediaInfo {
        requireNonNull(mediaType, "mediaType is null");
        requireNonNull(format, "format is null");
        if (!isFormatName(format)) {
            throw new IllegalArgumentException("Format '" + format + "' is not 1 to " + MAX_FORMAT_LENGTH
                    + " lower-case letters and digits");
        }
        positive("width", width);
        positive("height", height);
        positive("sampleRate", sampleRate);
        positive("channels", channels);
        if (durationSeconds != null && !(durationSeconds >= 0 && durationSeconds < Double.POSITIVE_INFINITY)) {
            throw new IllegalArgumentException("durationSeconds must be finite and not negative: " + durationSeconds);
        }
        if ((width == null) != (height == null)) {
            throw new IllegalArgumentException("width and height are known together or not at all: " + width + "x"
                    + height);
        }
        boolean timed = mediaType == MediaType.AUDIO || mediaType == MediaType.VIDEO;
        boolean pictured = mediaType == MediaType.IMAGE || mediaType == MediaType.VIDEO;
        if (!pictured && width != null) {
            throw new IllegalArgumentException(mediaType + " has no width and height");
        }
        if (!timed && (durationSeconds != null || sampleRate != null || channels != null)) {
            throw new IllegalArgumentException(mediaType + " has no duration, sample rate or channels");
        }
    }

    /** A file of this kind and format with no facts: text, other files, or a header that could not be read. */
    public static MediaInfo of(MediaType mediaType, String format) {
        return new MediaInfo(mediaType, format, null, null, null, null, null);
    }

    /** An image of {@code width} by {@code height} pixels. */
    public static MediaInfo image(String format, int width, int height) {
        return new MediaInfo(MediaType.IMAGE, format, width, height, null, null, null);
    }

    /** Sound; {@code durationSeconds} may be null when the header does not give it (a FLAC stream, say). */
    public static MediaInfo audio(String format, Double durationSeconds, int sampleRate, int channels) {
        return new MediaInfo(MediaType.AUDIO, format, null, null, durationSeconds, sampleRate, channels);
    }

    /** A video; sample rate and channels are those of its first audio track, null without one. */
    public static MediaInfo video(String format, Double durationSeconds, int width, int height, Integer sampleRate,
                                  Integer channels) {
        return new MediaInfo(MediaType.VIDEO, format, width, height, durationSeconds, sampleRate, channels);
    }

    /** Whether any header fact is known. */
    public boolean hasFacts() {
        return width != null || durationSeconds != null || sampleRate != null || channels != null;
    }

    /** Whether {@code name} can be a {@link #format()}: 1 to 16 lower-case ASCII letters and digits. */
    public static boolean isFormatName(String name) {
        if (name == null || name.isEmpty() || name.length() > MAX_FORMAT_LENGTH) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (!(c >= 'a' && c <= 'z') && !(c >= '0' && c <= '9')) {
                return false;
            }
        }
        return true;
    }

    private static void positive(String what, Integer value) {
        if (value != null && value < 1) {
            throw new IllegalArgumentException(what + " must be at least 1: " + value);
        }
    }
}
