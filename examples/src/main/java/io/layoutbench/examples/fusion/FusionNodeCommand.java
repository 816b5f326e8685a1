package io.layoutbench.examples.fusion;

import io.layoutbench.fusion.cluster.StorageNodeMain;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code fusion node}: one storage node in the foreground, serving a directory over Arrow Flight until SIGTERM or
 * Ctrl-C (then it drains its calls and stops). Prints {@code storage node ready flight://HOST:PORT serving DIR}
 * once it accepts calls.
 *
 * <pre>
 * layoutbench fusion node --dir /data/node-3 --port 47003
 * </pre>
 */
@Command(name = "node", mixinStandardHelpOptions = true,
        description = "Run one storage node (an Arrow Flight server over a directory) until SIGTERM or Ctrl-C; "
                + "prints one line with its flight:// address when ready.")
final class FusionNodeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--dir", required = true, description = "The directory of the node's blocks (created if missing).")
    Path dir;

    @Option(names = "--port", required = true, description = "The port to listen on (0: any free one).")
    int port;

    @Option(names = "--host", defaultValue = "127.0.0.1",
            description = "The address to bind, and to give in the node's URI (default: ${DEFAULT-VALUE}).")
    String host;

    @Override
    public Integer call() throws InterruptedException {
        StorageNodeMain.Settings settings;
        try {
            settings = new StorageNodeMain.Settings(dir, host, port);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        PrintWriter out = spec.commandLine().getOut();
        StorageNodeMain.serve(settings, line -> {
            out.println(line);
            out.flush();
        });
        return 0;
    }
}
