package io.layoutbench.fusion.cluster;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.StorageException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * A storage node running as a process of its own ({@link StorageNodeMain} in a new JVM on this JVM's class path),
 * or found again by its pid: started, waited for until it serves, stopped with SIGTERM, or killed.
 *
 * <pre>{@code
 * NodeProcess node = NodeProcess.launch(
 *         new StorageNodeMain.Settings(dir, "127.0.0.1", NodeProcess.freePort("127.0.0.1")), Path.of("node-3.log"));
 * URI uri = node.awaitReady(Duration.ofSeconds(60));     // flight://127.0.0.1:PORT, once it printed its ready line
 * ...
 * node.kill();                                           // SIGKILL: as a machine that lost power
 * }</pre>
 *
 * <p>Not thread-safe; a process outlives this object (and the JVM that started it) until stopped.
 */
public final class NodeProcess {

    /** The JVM options of a node process: what Flight needs on Java 17, and a small heap (puts spool 64 MiB). */
    public static final List<String> JVM_OPTIONS = List.of("--add-opens=java.base/java.nio=ALL-UNNAMED",
            "-Xmx256m", "-XX:+UseSerialGC");

    private final StorageNodeMain.Settings settings;
    private final Process process;
    private final Path log;

    private NodeProcess(StorageNodeMain.Settings settings, Process process, Path log) {
        this.settings = settings;
        this.process = process;
        this.log = log;
    }

    /**
     * Starts a node process serving {@code settings}, its standard output and error written to {@code log}
     * (replaced), with this JVM's {@code java} and class path, and returns at once; {@link #awaitReady} waits for it.
     *
     * @throws StorageException if the process cannot be started
     */
    public static NodeProcess launch(StorageNodeMain.Settings settings, Path log) {
        requireNonNull(settings, "settings is null");
        requireNonNull(log, "log is null");
        if (settings.port() == 0) {
            // The port is the node's name in the cluster file: it must be known before the process reports it.
            throw new IllegalArgumentException("A node process needs its port chosen up front (NodeProcess.freePort),"
                    + " not 0");
        }
        List<String> command = new ArrayList<>();
        command.add(ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        command.addAll(JVM_OPTIONS);
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), StorageNodeMain.class.getName(),
                "--dir", settings.dir().toAbsolutePath().toString(), "--host", settings.host(),
                "--port", Integer.toString(settings.port())));
        try {
            Files.createDirectories(log.toAbsolutePath().getParent());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.to(log.toFile())).start();
            process.getOutputStream().close();   // a node reads nothing: its standard input is closed
            return new NodeProcess(settings, process, log);
        } catch (IOException e) {
            throw new StorageException("Cannot start a storage node process for " + settings.dir() + " on "
                    + settings.host() + ":" + settings.port() + ": " + e.getMessage(), e);
        }
    }

    /**
     * Waits until the node printed its ready line (it then accepts calls), polling its log.
     *
     * @return the node's URI
     * @throws StorageException naming the node and the log's last lines if the process ended first, or if it was not
     *                          ready within {@code timeout} (the process is then killed)
     */
    public URI awaitReady(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = TimeUnit.MILLISECONDS.toNanos(5);
        while (true) {
            Optional<URI> ready = readyLine();
            if (ready.isPresent()) {
                return ready.get();
            }
            if (!process.isAlive()) {
                throw new StorageException("Storage node process " + process.pid() + " for " + settings.dir()
                        + " on port " + settings.port() + " ended with exit code " + process.exitValue()
                        + " before it was ready: " + tail());
            }
            if (System.nanoTime() - deadline > 0) {
                kill();
                throw new StorageException("Storage node process " + process.pid() + " for " + settings.dir()
                        + " on port " + settings.port() + " was not ready within " + timeout.toMillis()
                        + " ms, killed: " + tail());
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(100));
        }
    }

    private Optional<URI> readyLine() {
        return logLines().stream().filter(line -> line.startsWith(StorageNodeMain.READY)).findFirst()
                .map(line -> URI.create(line.substring(StorageNodeMain.READY.length()).split(" ", 2)[0]));
    }

    private List<String> logLines() {
        try {
            return Files.readAllLines(log, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the log " + log + " of a storage node process", e);
        }
    }

    /** The log's last lines, joined, for messages. */
    private String tail() {
        List<String> lines = logLines().stream().filter(line -> !line.isBlank()).toList();
        return lines.isEmpty() ? "its log " + log + " is empty"
                : String.join(" | ", lines.subList(Math.max(0, lines.size() - 3), lines.size()))
                        + " (log " + log + ")";
    }

    /** The process id. */
    public long pid() {
        return process.pid();
    }

    /** What the node serves, and where. */
    public StorageNodeMain.Settings settings() {
        return settings;
    }

    /** {@code flight://host:port}, where the node serves once ready. */
    public URI uri() {
        try {
            // This constructor puts an IPv6 literal in brackets, as the node's own URI has it.
            return new URI(StorageNodeServer.SCHEME, null, settings.host(), settings.port(), null, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("Not a host for a node's URI: " + settings.host(), e);
        }
    }

    /** The process's exit code, or -1 while it runs. */
    public int exitCode() {
        return process.isAlive() ? -1 : process.exitValue();
    }

    /** Whether the process is still running. */
    public boolean isAlive() {
        return process.isAlive();
    }

    /** Kills the process at once (SIGKILL on Linux: no shutdown hook runs) and waits until it is gone. */
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@link #stop(long, Instant, Duration)} for this process. */
    public StopOutcome stop(Duration grace) {
        return stop(process.pid(), started(), grace);
    }

    /** What {@link #stop(long, Instant, Duration)} did. */
    public enum StopOutcome {
        /** No such process (it had ended already). */
        GONE,
        /** It ended after SIGTERM, within the grace period. */
        STOPPED,
        /** It was still running after the grace period, and was killed. */
        KILLED,
        /** The pid is now another process's (the node ended and its pid was reused): left alone. */
        NOT_A_NODE
    }

    /**
     * Stops the node process {@code pid} started at {@code started}: asks it to end (SIGTERM: its shutdown hook
     * drains calls), waits up to {@code grace}, then kills it. A process with that pid but another start time (the
     * node ended and its pid was reused) is left alone, so a stale cluster file never stops another program.
     */
    public static StopOutcome stop(long pid, Instant started, Duration grace) {
        Optional<ProcessHandle> found = ProcessHandle.of(pid).filter(ProcessHandle::isAlive);
        if (found.isEmpty()) {
            return StopOutcome.GONE;
        }
        ProcessHandle handle = found.get();
        if (!isNode(handle, started)) {
            return StopOutcome.NOT_A_NODE;
        }
        handle.destroy();
        try {
            handle.onExit().get(grace.toMillis(), TimeUnit.MILLISECONDS);
            return StopOutcome.STOPPED;
        } catch (TimeoutException e) {
            handle.destroyForcibly();
            handle.onExit().join();
            return StopOutcome.KILLED;
        } catch (ExecutionException e) {
            throw new IllegalStateException("Cannot wait for node process " + pid + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while stopping node process " + pid, e);
        }
    }

    /** Whether the process {@code pid} started at {@code started} (see {@link #started()}) still runs. */
    public static boolean isRunning(long pid, Instant started) {
        return ProcessHandle.of(pid).filter(ProcessHandle::isAlive).filter(h -> isNode(h, started)).isPresent();
    }

    /**
     * When the process started, which with its pid names it (a pid alone may be reused); {@link Instant#EPOCH} where
     * the system does not tell.
     */
    public Instant started() {
        return process.info().startInstant().orElse(Instant.EPOCH);
    }

    private static boolean isNode(ProcessHandle handle, Instant started) {
        Optional<Instant> actual = handle.info().startInstant();
        if (actual.isPresent() && !started.equals(Instant.EPOCH)) {
            // Start times are kept in clock ticks (10 ms on Linux): equal within a second, or another process.
            return Duration.between(actual.get(), started).abs().compareTo(Duration.ofSeconds(1)) < 0;
        }
        // Without start times, the command line tells (it may be cut short: a long class path pushes the class out).
        return handle.info().commandLine().map(line -> line.contains(StorageNodeMain.class.getName()))
                .orElse(false);
    }

    /** Whether something accepts TCP connections on {@code host:port} within {@code timeout}. */
    public static boolean accepts(String host, int port, Duration timeout) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), (int) Math.max(1, timeout.toMillis()));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * A port free on {@code host} now. Another program may take it before a node binds it: a node that cannot bind
     * ends with exit code 1, and its starter may try another port.
     */
    public static int freePort(String host) {
        try (ServerSocket socket = new ServerSocket()) {
            socket.setReuseAddress(false);
            socket.bind(new InetSocketAddress(host, 0));
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot find a free port on " + host + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "NodeProcess[pid " + process.pid() + ", " + settings.dir() + " on " + settings.host() + ":"
                + settings.port() + "]";
    }
}
