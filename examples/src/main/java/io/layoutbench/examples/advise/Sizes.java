package io.layoutbench.examples.advise;

import java.util.Locale;

/** Byte counts as the layouts' options write them ({@code 64MB} is 64 MiB) and as people read them. */
final class Sizes {

    private Sizes() {
    }

    /** {@code bytes} as a layout option: {@code 64MB}, {@code 16KB}, or plain bytes. */
    static String option(long bytes) {
        if (bytes >= 1L << 30 && bytes % (1L << 30) == 0) {
            return (bytes >> 30) + "GB";
        }
        if (bytes >= 1L << 20 && bytes % (1L << 20) == 0) {
            return (bytes >> 20) + "MB";
        }
        if (bytes >= 1L << 10 && bytes % (1L << 10) == 0) {
            return (bytes >> 10) + "KB";
        }
        return bytes + "B";
    }

    /** {@code bytes} rounded for reading: {@code 375KB}, {@code 4.3KB}, {@code 1.5MB}, {@code 512B}. */
    static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + "B";
        }
        String[] units = {"KB", "MB", "GB", "TB"};
        double value = bytes;
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return (value >= 10 || value == Math.rint(value)
                ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value)) + units[unit];
    }
}
