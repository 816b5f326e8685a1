package io.layoutbench.examples.cli;

import picocli.CommandLine;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Where the data lives: {@code --data-dir}, {@code --backend}, {@code --backend-property}. */
final class StoreOptions {

    static final String DEFAULT_DATA_DIR = "layoutbench-data";

    @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = DEFAULT_DATA_DIR,
            description = "Working directory: the file backend's objects, the embedded S3 server's buckets, and "
                    + "results. Default: ${DEFAULT-VALUE}.")
    Path dataDir;

    @Option(names = "--backend", paramLabel = "BACKEND", defaultValue = "file",
            description = "Object store: file (under DIR/objects), mem (in this process, nothing is kept), "
                    + "s3-embedded (an S3 server in this process, buckets under DIR/s3) or s3://bucket/prefix. "
                    + "Default: ${DEFAULT-VALUE}.")
    String backend;

    @Option(names = "--backend-property", paramLabel = "KEY=VALUE",
            description = "A setting of the S3 backend (region, endpoint, ...); repeatable.")
    Map<String, String> backendProperties = new LinkedHashMap<>();

    /**
     * Opens the store.
     *
     * @throws ParameterException if {@code --backend} names no known backend
     */
    Store open(CommandLine cmd) {
        Store.checkSpec(cmd, backend);
        return Store.open(backend, dataDir, backendProperties);
    }
}
