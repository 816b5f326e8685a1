package io.layoutbench.api.dataset;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

/**
 * A metadata column: its name, its type and other names it answers to (the LayoutBench paper calls the class
 * label {@code human_label} in L1/L2 and {@code label} in L3).
 *
 * <pre>{@code
 * Column label = new Column("label", ColumnType.STRING, List.of("human_label"));
 * }</pre>
 *
 * @param name    canonical name: letters, digits and underscores, starting with a letter or underscore
 * @param type    value type
 * @param aliases other names accepted in predicates; may be empty
 */
public record Column(String name, ColumnType type, List<String> aliases) implements java.io.Serializable {

    private static final long serialVersionUID = 1L;


    public Column {
        requireNonNull(name, "name is null");
        requireNonNull(type, "type is null");
        aliases = List.copyOf(requireNonNull(aliases, "aliases is null"));
        checkIdentifier(name);
        for (String alias : aliases) {
            checkIdentifier(alias);
            if (alias.equalsIgnoreCase(name)) {
                throw new IllegalArgumentException("Column '" + name + "' lists its own name as an alias");
            }
        }
    }

    /** A column with no aliases. */
    public Column(String name, ColumnType type) {
        this(name, type, List.of());
    }

    /** Whether {@code identifier} names this column, by name or alias, ignoring case as SQL does. */
    public boolean answersTo(String identifier) {
        if (name.equalsIgnoreCase(identifier)) {
            return true;
        }
        for (String alias : aliases) {
            if (alias.equalsIgnoreCase(identifier)) {
                return true;
            }
        }
        return false;
    }

    private static void checkIdentifier(String identifier) {
        if (identifier.isEmpty() || !identifier.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new IllegalArgumentException("Invalid column name '" + identifier
                    + "': use letters, digits and underscores, starting with a letter or underscore");
        }
    }

    @Override
    public String toString() {
        return name + " " + type.name().toLowerCase(Locale.ROOT);
    }
}
