package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;


/**
 * The rule for payload field names: what WebDataset calls a member's extension ({@code jpg}, {@code json},
 * {@code seg.png}): 1 to 64 letters, digits, {@code _}, {@code -} and {@code .}, starting with a letter or digit.
 *
 * <pre>{@code
 * PayloadFields.check("seg.png");   // fine
 * PayloadFields.check("../x");      // IllegalArgumentException
 * }</pre>
 */
public final class PayloadFields {

    private static final int MAX_LENGTH = 64;

    private PayloadFields() {
    }

    /**
     * Checks a payload field name.
     *
     * @throws IllegalArgumentException naming the field and the rule
     */
    public static String check(String name) {
        requireNonNull(name, "payload field name is null");
        if (!valid(name)) {
            throw new IllegalArgumentException("Invalid payload field name '" + name + "': use 1 to 64 letters, "
                    + "digits, '_', '-' and '.', starting with a letter or digit (a WebDataset extension, e.g. jpg)");
        }
        return name;
    }

    /** The rule as a loop, not a regular expression: every sample a query returns checks its fields' names. */
    private static boolean valid(String name) {
        int length = name.length();
        if (length == 0 || length > MAX_LENGTH || !letterOrDigit(name.charAt(0))) {
            return false;
        }
        for (int i = 1; i < length; i++) {
            char c = name.charAt(i);
            if (!letterOrDigit(c) && c != '_' && c != '.' && c != '-') {
                return false;
            }
        }
        return true;
    }

    private static boolean letterOrDigit(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
}
