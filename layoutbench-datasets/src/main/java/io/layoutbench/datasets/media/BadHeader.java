package io.layoutbench.datasets.media;

/** A header reader's own finding that a header is cut short or malformed; the message is the reason alone. */
final class BadHeader extends Exception {
    private static final long serialVersionUID = 1L;

    BadHeader(String reason) {
        super(reason);
    }
}
