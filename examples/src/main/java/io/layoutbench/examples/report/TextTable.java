package io.layoutbench.examples.report;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A plain-text table with a header row and aligned columns: text left, numbers right (with a unit, a ratio, a
 * leading {@code $} or a {@code *} mark). Rows may be separators.
 *
 * <pre>{@code
 * TextTable table = new TextTable("Query", "T (s)");
 * table.row("Q1", "0.041");
 * System.out.print(table.render());
 * }</pre>
 */
public final class TextTable {

    private final List<String> headers;
    private final List<List<String>> rows = new ArrayList<>();

    public TextTable(String... headers) {
        this.headers = List.of(headers);
    }

    public TextTable row(Object... cells) {
        if (cells.length != headers.size()) {
            throw new IllegalArgumentException("Expected " + headers.size() + " cells, got " + cells.length);
        }
        rows.add(Arrays.stream(cells).map(c -> c == null ? "" : c.toString()).toList());
        return this;
    }

    /** A blank line between groups of rows. */
    public TextTable separator() {
        rows.add(null);
        return this;
    }

    public String render() {
        int[] widths = new int[headers.size()];
        boolean[] numeric = new boolean[headers.size()];
        Arrays.fill(numeric, true);
        for (int i = 0; i < widths.length; i++) {
            widths[i] = headers.get(i).length();
        }
        for (List<String> row : rows) {
            if (row == null) {
                continue;
            }
            for (int i = 0; i < widths.length; i++) {
                String cell = row.get(i);
                widths[i] = Math.max(widths[i], cell.length());
                if (!cell.isEmpty() && !looksNumeric(cell)) {
                    numeric[i] = false;
                }
            }
        }
        StringBuilder out = new StringBuilder();
        line(out, headers, widths, numeric);
        int total = Arrays.stream(widths).sum() + 2 * (widths.length - 1);
        out.append("-".repeat(total)).append('\n');
        for (List<String> row : rows) {
            if (row == null) {
                out.append('\n');
            } else {
                line(out, row, widths, numeric);
            }
        }
        return out.toString();
    }

    private static void line(StringBuilder out, List<String> cells, int[] widths, boolean[] numeric) {
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < widths.length; i++) {
            if (i > 0) {
                line.append("  ");
            }
            String cell = cells.get(i);
            String pad = " ".repeat(widths[i] - cell.length());
            line.append(numeric[i] ? pad + cell : cell + pad);
        }
        out.append(line.toString().stripTrailing()).append('\n');
    }

    private static boolean looksNumeric(String cell) {
        return cell.matches("[*$]?[-+]?[0-9.,]+((e[-+]?[0-9]+)?%?( ± [0-9.]+)?( s)?|x)");
    }
}
