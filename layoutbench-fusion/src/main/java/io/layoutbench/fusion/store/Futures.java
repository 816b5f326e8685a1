package io.layoutbench.fusion.store;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/** Helpers for the futures of node requests. Stateless and thread-safe. */
final class Futures {

    private Futures() {
    }

    /**
     * The failure behind {@code error}: futures wrap it in {@link CompletionException} or {@link ExecutionException},
     * and callers decide by its type (missing block, checksum, node down) and report its message.
     */
    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
