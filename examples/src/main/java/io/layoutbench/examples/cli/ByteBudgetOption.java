package io.layoutbench.examples.cli;

import io.layoutbench.api.layout.QueryOptions;
import io.layoutbench.layouts.common.LayoutOptions;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code --max-buffered}: a query's byte budget ({@link QueryOptions#maxBufferedBytes}). */
final class ByteBudgetOption {

    @Option(names = "--max-buffered", paramLabel = "SIZE",
            description = "Bytes of reads a query has launched and not yet handed over, at most: its memory, and what"
                    + " bounds its reads in flight on a fast link (in dataset order a late read holds back the"
                    + " budget of the done ones behind it). Default: the library's for this JVM's heap, a quarter"
                    + " of it, at most 256MB.")
    String maxBuffered;

    /**
     * The budget: the one given, or the library's default for this JVM's heap
     * ({@link QueryOptions#defaultMaxBufferedBytes()}).
     *
     * @throws ParameterException if it is not a positive size
     */
    long value(CommandLine cmd) {
        try {
            return maxBuffered == null ? QueryOptions.defaultMaxBufferedBytes()
                    : LayoutOptions.parseSize("--max-buffered", maxBuffered);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(cmd, e.getMessage());
        }
    }
}
