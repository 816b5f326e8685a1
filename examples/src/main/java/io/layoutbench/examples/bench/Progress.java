package io.layoutbench.examples.bench;

/**
 * Progress of one long step (generating, ingesting, running queries), reported as it advances. Implementations
 * draw a progress bar on a console, or nothing. Not thread-safe: the thread doing the work reports.
 *
 * <pre>{@code
 * try (Progress progress = progressFactory.start("Ingest l2", samples, "samples")) {
 *     for (Sample s : source) { writer.add(s); progress.step(1); }
 * }
 * }</pre>
 */
public interface Progress extends AutoCloseable {

    /** Reports nothing. */
    Progress NONE = new Progress() {
        @Override
        public void step(long amount) {
        }

        @Override
        public void message(String text) {
        }

        @Override
        public void close() {
        }
    };

    /** Advances by {@code amount} units. */
    void step(long amount);

    /** Shows {@code text} next to the bar (what is being done now). */
    void message(String text);

    /** Finishes the bar. */
    @Override
    void close();

    /** Starts progress reports for one step. */
    @FunctionalInterface
    interface Factory {

        /** A factory whose progress reports nothing. */
        Factory NONE = (task, total, unit) -> Progress.NONE;

        /**
         * Starts reporting {@code task}.
         *
         * @param total units of work, or -1 if unknown
         * @param unit  what a unit is ({@code samples}, {@code runs}), for display
         */
        Progress start(String task, long total, String unit);
    }
}
