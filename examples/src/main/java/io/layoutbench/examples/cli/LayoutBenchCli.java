package io.layoutbench.examples.cli;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
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
 * {@code advise}. Errors are one line on standard error ({@code --verbose} adds the stack trace); the exit code is
 * 0 on success, 1 when the work failed, 2 when the command line was wrong.
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
        // Small row groups of large images do that by design (fac's 256 KiB row groups hold one image of up to
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

    boolean verbose() {
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

    private static int onExecutionError(LayoutBenchCli root, Exception e, CommandLine cmd) {
        PrintWriter err = cmd.getErr();
        err.println(commandName(cmd) + ": " + describe(e));
        if (root.verbose || isVerbose(cmd)) {
            e.printStackTrace(err);
        } else {
            err.println("(run again with --verbose for the stack trace)");
        }
        err.flush();
        return EXIT_FAILURE;
    }

    /** The failure in one line: the innermost useful message, without wrapper noise. */
    static String describe(Throwable e) {
        Throwable shown = e;
        while ((shown instanceof CompletionException || shown instanceof ExecutionException
                || shown instanceof UncheckedIOException && shown.getMessage() == null)
                && shown.getCause() != null) {
            shown = shown.getCause();
        }
        String message = shown.getMessage();
        if (message == null || message.isBlank()) {
            message = shown.getClass().getSimpleName();
        } else if (!(shown instanceof RuntimeException) || shown.getClass().getName().startsWith("java.")) {
            // A JDK exception's message alone can be cryptic ("/tmp/x"): say what kind of failure it was.
            message = shown.getClass().getSimpleName() + ": " + message;
        }
        return oneLine(message);
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
