package io.layoutbench.examples.cli;

import java.io.PrintWriter;
import java.io.StringWriter;

/** Runs the command line in this process and captures what it printed. */
record CliRunner(int exitCode, String out, String err) {

    static CliRunner run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int exit = LayoutBenchCli.execute(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new CliRunner(exit, out.toString(), err.toString());
    }

    /** The non-empty lines of standard error. */
    java.util.List<String> errLines() {
        return err.lines().filter(line -> !line.isBlank()).toList();
    }
}
