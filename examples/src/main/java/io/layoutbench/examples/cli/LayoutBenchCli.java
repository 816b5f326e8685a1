package io.layoutbench.examples.cli;

import io.layoutbench.api.ConfigurationException;

import java.io.EOFException;
import java.io.PrintWriter;
import java.net.UnknownHostException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemLoopException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.ScopeType;
import picocli.CommandLine.Spec;

/**
 * The {@code layoutbench} command line: {@code bench}, {@code generate}, {@code ingest}, {@code query},
 * {@code advise}. Errors are one line on standard error, saying what failed, where and why without Java class names
 * ({@code --verbose} adds the stack trace); the exit code is 0 on success, 1 when the work failed, 2 when the command
 * line or the configuration was wrong (a bad option, backend property or layout option, an unreadable AWS profile).
 *
 * <pre>{@code
 * ./layoutbench bench --scale tiny --profile none
 * int exit = LayoutBenchCli.execute(new String[] {"bench", "--help"}, out, err);   // in-process, for tests
 * }</pre>
 */
@Command(name = "layoutbench",
        mixinStandardHelpOptions = true,
        versionProvider = LayoutBenchCli.Version.class,
        description = {
            "Store ML image datasets in object storage in different layouts and fetch samples by metadata "
                    + "predicate; reproduce the LayoutBench benchmark (T, D, requests, cost per query and layout).",
            ""},
        subcommands = {
            BenchCommand.class,
            GenerateCommand.class,
            IngestCommand.class,
            QueryCommand.class,
            LoadCommand.class,
            DescribeCommand.class,
            AdviseCommand.class,
            io.layoutbench.examples.fac.FacCommand.class,
            io.layoutbench.examples.fusion.FusionCommand.class,
            CommandLine.HelpCommand.class},
        footer = {"", "Run 'layoutbench COMMAND --help' for the options of a command."})
public final class LayoutBenchCli implements Callable<Integer> {

    /** Exit code when the work failed. */
    public static final int EXIT_FAILURE = 1;
    /** Exit code when the command line was wrong. */
    public static final int EXIT_USAGE = 2;

    @Spec
    CommandSpec spec;

    @Option(names = "--verbose", scope = ScopeType.INHERIT,
            description = "Print stack traces with errors, and more detail while working.")
    boolean verbose;

    public static void main(String[] args) {
        System.setProperty("java.awt.headless", "true");
        // Libraries (the embedded S3 server, the AWS SDK) log through SLF4J: only warnings, unless asked.
        setIfAbsent("org.slf4j.simpleLogger.defaultLogLevel",
                java.util.Arrays.asList(args).contains("--verbose") ? "info" : "warn");
        // parquet-java warns "Too much memory used" whenever a row group's buffers exceed 3x the row-group size.
        // Small row groups of large images do that by design (fac's 512 KiB row groups hold a few images of up to
        // ~2 MB each), and only larger row groups would avoid it, which would change the files and the benchmark.
        setIfAbsent("org.slf4j.simpleLogger.log.org.apache.parquet.hadoop.InternalParquetRecordWriter", "error");
        PrintWriter out = new PrintWriter(System.out, true);
        PrintWriter err = new PrintWriter(System.err, true);
        int exit = execute(args, out, err);
        out.flush();
        err.flush();
        System.exit(exit);
    }

    private static void setIfAbsent(String property, String value) {
        if (System.getProperty(property) == null) {
            System.setProperty(property, value);
        }
    }

    /** Runs the command line in this process, writing to {@code out} and {@code err}; returns the exit code. */
    public static int execute(String[] args, PrintWriter out, PrintWriter err) {
        LayoutBenchCli root = new LayoutBenchCli();
        CommandLine commandLine = new CommandLine(root)
                .setOut(out)
                .setErr(err)
                .setCaseInsensitiveEnumValuesAllowed(true)
                .setParameterExceptionHandler(LayoutBenchCli::onParameterError)
                .setExecutionExceptionHandler((e, cmd, parseResult) -> onExecutionError(root, e, cmd));
        return commandLine.execute(args);
    }

    /** Without a subcommand: the usage, and exit code 2. */
    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return EXIT_USAGE;
    }

    /** Whether --verbose was given: commands that print their own errors add the stack trace. */
    public boolean verbose() {
        return verbose;
    }

    private static int onParameterError(ParameterException e, String[] args) {
        CommandLine cmd = e.getCommandLine();
        PrintWriter err = cmd.getErr();
        err.println(commandName(cmd) + ": " + oneLine(e.getMessage()) + " (see '" + commandName(cmd)
                + " --help')");
        if (isVerbose(cmd)) {
            e.printStackTrace(err);
        }
        err.flush();
        return EXIT_USAGE;
    }

    /**
     * A failure while working: one line saying what failed, where and why, with no Java class names (those are in
     * the stack trace, with {@code --verbose}). A configuration error (a bad backend property or layout option, an
     * unreadable AWS profile) is the command line's fault: exit code 2, as for a bad option; anything else is 1.
     */
    private static int onExecutionError(LayoutBenchCli root, Exception e, CommandLine cmd) {
        PrintWriter err = cmd.getErr();
        boolean configuration = configurationError(e);
        err.println(commandName(cmd) + ": " + describe(e));
        if (root.verbose || isVerbose(cmd)) {
            e.printStackTrace(err);
        } else if (!configuration) {
            err.println("(run again with --verbose for the stack trace)");
        }
        err.flush();
        return configuration ? EXIT_USAGE : EXIT_FAILURE;
    }

    private static boolean configurationError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConfigurationException) {
                return true;
            }
        }
        return false;
    }

    /**
     * The failure in one line: the innermost useful message, without wrapper noise and without Java class names. A
     * JDK exception whose message alone is cryptic ({@code /tmp/x} for a missing file) is said in words first.
     */
    public static String describe(Throwable e) {
        Throwable shown = e;
        // Past wrappers, and past exceptions made from a cause alone, whose message is the cause's class and message.
        while (shown.getCause() != null && (shown instanceof CompletionException
                || shown instanceof ExecutionException || shown.getMessage() == null
                || shown.getMessage().equals(shown.getCause().toString()))) {
            shown = shown.getCause();
        }
        String message = shown.getMessage();
        String words = inWords(shown);
        if (message == null || message.isBlank()) {
            message = words != null ? words : "an internal error without a message (--verbose shows where)";
        } else if (words != null) {
            message = words + ": " + message;
        }
        return oneLine(message);
    }

    /** What a JDK exception means, for those whose message does not say it; null for the rest. */
    private static String inWords(Throwable e) {
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        } else if (e instanceof java.nio.file.AccessDeniedException) {
            return "permission denied";
        } else if (e instanceof FileAlreadyExistsException) {
            return "already exists";
        } else if (e instanceof NotDirectoryException) {
            return "not a directory";
        } else if (e instanceof DirectoryNotEmptyException) {
            return "directory not empty";
        } else if (e instanceof FileSystemLoopException) {
            return "a loop of symbolic links";
        } else if (e instanceof UnknownHostException) {
            return "unknown host";
        } else if (e instanceof EOFException) {
            return "unexpected end of file";
        } else if (e instanceof InterruptedException) {
            return "interrupted";
        } else if (e instanceof NullPointerException || e instanceof ClassCastException
                || e instanceof IndexOutOfBoundsException || e instanceof ArithmeticException) {
            return "internal error (--verbose shows where)";
        }
        return null;
    }

    private static String oneLine(String message) {
        return message == null ? "" : message.strip().replaceAll("\\s*\\R\\s*", "; ");
    }

    private static String commandName(CommandLine cmd) {
        return cmd.getCommandSpec().qualifiedName();
    }

    private static boolean isVerbose(CommandLine cmd) {
        ParseResult parseResult = cmd.getParseResult();
        for (CommandLine c = cmd; c != null; c = c.getParent()) {
            if (c.getCommand() instanceof LayoutBenchCli root && root.verbose) {
                return true;
            }
        }
        return parseResult != null && parseResult.hasMatchedOption("--verbose");
    }

    /** The version from the jar's manifest, or "development". */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String version = LayoutBenchCli.class.getPackage().getImplementationVersion();
            return new String[] {"layoutbench " + (version == null ? "(development build)" : version),
                "Java " + System.getProperty("java.version")};
        }
    }
}
