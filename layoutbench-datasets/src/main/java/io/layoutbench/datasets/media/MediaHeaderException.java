package io.layoutbench.datasets.media;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.LayoutBenchException;

import java.util.Locale;

/**
 * A file of a recognised media format whose header could not be read: it is empty, cut short, damaged, or only
 * named like that format. The message names the file, the format and why, on one line; {@link #detected()} is what
 * is known without the header (kind and format, no facts), so a caller can keep the file as opaque bytes.
 *
 * <pre>{@code
 * MediaInfo info;
 * try {
 *     info = MediaProbe.probe(file);
 * } catch (MediaHeaderException e) {
 *     // "Cannot read the WAV header of clips/a.wav: the data chunk ends at byte 33154 but the file has 16577 bytes"
 *     info = e.detected();
 * }
 * }</pre>
 */
public class MediaHeaderException extends LayoutBenchException {
    private static final long serialVersionUID = 1L;

    private final String source;
    private final transient MediaInfo detected;
    private final String reason;

    /**
     * @param source   the file read, as it should appear in the message
     * @param detected the kind and format the file was recognised as, without facts
     * @param reason   why the header could not be read, without the file and format (they are prepended)
     * @param cause    the library's error, or null
     */
    public MediaHeaderException(String source, MediaInfo detected, String reason, Throwable cause) {
        super("Cannot read the " + requireNonNull(detected, "detected is null").format().toUpperCase(Locale.ROOT)
                + " header of " + requireNonNull(source, "source is null") + ": "
                + requireNonNull(reason, "reason is null"), cause);
        if (detected.hasFacts()) {
            throw new IllegalArgumentException("detected must have no facts: " + detected);
        }
        this.source = source;
        this.detected = detected;
        this.reason = reason;
    }

    /** The file that was read. */
    public String source() {
        return source;
    }

    /** The kind and format the file was recognised as, with no facts. */
    public MediaInfo detected() {
        return detected;
    }

    /** Why the header could not be read. */
    public String reason() {
        return reason;
    }
}
