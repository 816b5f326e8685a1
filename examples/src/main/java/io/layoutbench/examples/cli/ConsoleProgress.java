package io.layoutbench.examples.cli;

import io.layoutbench.examples.bench.Progress;

import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/**
 * Progress bars on standard error, drawn only when a console is attached: piped or redirected output, and tests,
 * get no bars and no control characters.
 */
final class ConsoleProgress {

    private ConsoleProgress() {
    }

    /** Bars on standard error if a console is attached, otherwise nothing. */
    static Progress.Factory factory() {
        return System.console() != null ? ConsoleProgress::bar : Progress.Factory.NONE;
    }

    private static Progress bar(String task, long total, String unit) {
        ProgressBar bar = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setUpdateIntervalMillis(250)
                .setConsumer(new ConsoleProgressBarConsumer(System.err))
                .setUnit(" " + unit, 1)
                .showSpeed()
                .build();
        return new Progress() {
            @Override
            public void step(long amount) {
                bar.stepBy(amount);
            }

            @Override
            public void message(String text) {
                bar.setExtraMessage(" " + text);
            }

            @Override
            public void close() {
                bar.close();
            }
        };
    }
}
