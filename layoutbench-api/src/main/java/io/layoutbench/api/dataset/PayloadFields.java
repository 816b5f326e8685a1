package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.util.regex.Pattern;

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

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,63}");

    private PayloadFields() {
    }

    /**
     * Checks a payload field name.
     *
     * @throws IllegalArgumentException naming the field and the rule
     */
    public static String check(String name) {
        requireNonNull(name, "payload field name is null");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Invalid payload field name '" + name + "': use 1 to 64 letters, "
                    + "digits, '_', '-' and '.', starting with a letter or digit (a WebDataset extension, e.g. jpg)");
        }
        return name;
    }
}
