package io.layoutbench.api.predicate;

import static io.layoutbench.api.predicate.Expressions.column;
import static io.layoutbench.api.predicate.Expressions.lit;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded generators of schemas, rows and well-typed predicate trees for the property tests. Value domains are
 * small so that equality, IN and LIKE hit often, and include the awkward values: NULL, NaN, infinities, -0.0,
 * BIGINT extremes (overflow), empty strings and strings holding LIKE wildcards.
 */
final class RandomPredicates {
    private static final ColumnType[] TYPES = ColumnType.values();
    private static final String[] NAMES = {"a", "b", "c", "width", "label", "limit", "order", "n_2", "Big"};
    private static final long[] LONGS = {-3, -2, -1, 0, 1, 2, 3, 7, 100, Long.MAX_VALUE, Long.MIN_VALUE,
            4_611_686_018_427_387_904L};
    private static final double[] DOUBLES = {-2.5, -1.0, -0.0, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 1e300};
    private static final double[] ODD_DOUBLES = {Double.NaN, Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    private static final String[] STRINGS = {"", "a", "ab", "abc", "b", "ba", "snake", "king_snake", "a%b", "_",
            "o'neil", "Z"};
    private static final String[] PATTERNS = {"%", "%%", "a%", "%a", "%b%", "a_", "_", "", "a%b", "%snake", "ab%",
            "_a%", "b", "%_"};

    private final Random random;
    private final MetadataSchema schema;
    /** What each column may be called in a predicate: its name or an alias. */
    private final List<List<String>> spellings = new ArrayList<>();

    RandomPredicates(Random random) {
        this.random = random;
        int count = 1 + random.nextInt(5);
        List<Column> columns = new ArrayList<>();
        List<String> names = new ArrayList<>(List.of(NAMES));
        for (int i = 0; i < count; i++) {
            String name = names.remove(random.nextInt(names.size()));
            ColumnType type = TYPES[random.nextInt(TYPES.length)];
            List<String> aliases = random.nextInt(4) == 0 ? List.of(name + "_alias") : List.of();
            columns.add(new Column(name, type, aliases));
            List<String> spelled = new ArrayList<>(aliases);
            spelled.add(name);
            spelled.add(name.toUpperCase(java.util.Locale.ROOT)); // case-insensitive resolution
            spellings.add(spelled);
        }
        schema = new MetadataSchema(columns);
    }

    MetadataSchema schema() {
        return schema;
    }

    List<MetadataRow> rows(int count) {
        // Some tables have no NULLs at all, so the null-bitmap-free paths are exercised too.
        double nullRate = random.nextInt(3) == 0 ? 0 : 0.15;
        List<MetadataRow> rows = new ArrayList<>(count);
        for (int r = 0; r < count; r++) {
            List<Object> values = new ArrayList<>();
            for (Column c : schema.columns()) {
                values.add(random.nextDouble() < nullRate ? null : value(c.type(), true));
            }
            rows.add(new MetadataRow(schema, values));
        }
        return rows;
    }

    private Object value(ColumnType type, boolean data) {
        return switch (type) {
            case BIGINT -> LONGS[random.nextInt(random.nextInt(4) == 0 ? LONGS.length : 9)];
            case DOUBLE -> data && random.nextInt(8) == 0 ? ODD_DOUBLES[random.nextInt(ODD_DOUBLES.length)]
                    : DOUBLES[random.nextInt(DOUBLES.length)];
            case STRING -> STRINGS[random.nextInt(STRINGS.length)];
            case BOOLEAN -> random.nextBoolean();
        };
    }

    /** A well-typed predicate of depth at most {@code depth}. */
    Expression predicate(int depth) {
        for (int attempt = 0; ; attempt++) {
            try {
                return bool(depth);
            } catch (PredicateException e) {
                // Constant folding hit a zero divisor or an overflow; draw again.
                if (attempt > 100) {
                    throw e;
                }
            }
        }
    }

    private Expression bool(int depth) {
        int choice = random.nextInt(depth <= 1 ? 6 : 12);
        switch (choice) {
            case 0:
                return comparison(depth);
            case 1: {
                ColumnType type = anyType();
                List<Object> values = new ArrayList<>();
                int n = 1 + random.nextInt(3);
                for (int i = 0; i < n; i++) {
                    values.add(inValue(type));
                }
                Expression operand = subject(type, depth - 1);
                return random.nextBoolean() ? Expressions.in(operand, values) : Expressions.notIn(operand, values);
            }
            case 2: {
                Expression operand = subject(ColumnType.STRING, depth - 1);
                String pattern = PATTERNS[random.nextInt(PATTERNS.length)];
                return random.nextBoolean() ? Expressions.like(operand, pattern) : Expressions.notLike(operand, pattern);
            }
            case 3: {
                Expression operand = subject(anyType(), depth - 1);
                return random.nextBoolean() ? Expressions.isNull(operand) : Expressions.isNotNull(operand);
            }
            case 4:
                return columnOf(ColumnType.BOOLEAN) != null && random.nextBoolean()
                        ? columnOf(ColumnType.BOOLEAN) : comparison(depth);
            case 5:
                return random.nextInt(20) == 0 ? lit(random.nextBoolean()) : comparison(depth);
            case 6:
            case 7: {
                List<Expression> operands = new ArrayList<>();
                int n = 2 + random.nextInt(2);
                for (int i = 0; i < n; i++) {
                    operands.add(bool(depth - 1));
                }
                return Expressions.and(operands);
            }
            case 8:
            case 9: {
                List<Expression> operands = new ArrayList<>();
                int n = 2 + random.nextInt(2);
                for (int i = 0; i < n; i++) {
                    operands.add(bool(depth - 1));
                }
                return Expressions.or(operands);
            }
            case 10:
                return Expressions.not(bool(depth - 1));
            default: {
                // A predicate compared as a BOOLEAN value: (a < b) = TRUE and friends.
                ComparisonOperator op = ComparisonOperator.values()[random.nextInt(6)];
                return Expressions.comparison(op, bool(depth - 1), value(ColumnType.BOOLEAN, depth - 1));
            }
        }
    }

    private Expression comparison(int depth) {
        ComparisonOperator op = ComparisonOperator.values()[random.nextInt(6)];
        ColumnType type = anyType();
        if (type.isNumeric()) {
            // Mix BIGINT and DOUBLE operands: they compare as doubles.
            ColumnType other = random.nextInt(3) == 0 ? (type == ColumnType.BIGINT ? ColumnType.DOUBLE
                    : ColumnType.BIGINT) : type;
            return random.nextBoolean()
                    ? Expressions.comparison(op, subject(type, depth - 1), value(other, depth - 1))
                    : Expressions.comparison(op, value(other, depth - 1), subject(type, depth - 1));
        }
        return Expressions.comparison(op, subject(type, depth - 1), value(type, depth - 1));
    }

    private Object inValue(ColumnType type) {
        if (type.isNumeric()) {
            return random.nextBoolean() ? (Object) LONGS[random.nextInt(9)] : DOUBLES[random.nextInt(DOUBLES.length)];
        }
        return value(type, false);
    }

    /** The tested side of a predicate: rarely a literal, which would fold the predicate to a constant. */
    private Expression subject(ColumnType type, int depth) {
        Expression col = columnOf(type);
        if (col == null || random.nextInt(10) < 3) {
            Expression v = value(type, depth);
            if (!(v instanceof Literal) || col == null || random.nextInt(10) == 0) {
                return v;
            }
        }
        return col;
    }

    /** An expression of {@code type}: a column, a literal, or for numbers arithmetic, negation and casts. */
    private Expression value(ColumnType type, int depth) {
        Expression col = columnOf(type);
        int roll = random.nextInt(10);
        boolean composite = depth > 0 && (type.isNumeric() || type == ColumnType.BOOLEAN);
        if (col != null && (roll < 5 || (roll < 8 && !composite))) {
            return col;
        }
        if (roll < 8 || !composite) {
            return Literal.of(value(type, false));
        }
        if (type == ColumnType.BOOLEAN) {
            return bool(depth);
        }
        switch (random.nextInt(5)) {
            case 0:
                return Expressions.negate(value(type, depth - 1));
            case 1: {
                ColumnType from = random.nextBoolean() ? ColumnType.BIGINT : ColumnType.DOUBLE;
                return Expressions.cast(value(from, depth - 1), type);
            }
            default: {
                if (type == ColumnType.DOUBLE && random.nextInt(3) == 0) {
                    ColumnType l = random.nextBoolean() ? ColumnType.BIGINT : ColumnType.DOUBLE;
                    ColumnType r = random.nextBoolean() ? ColumnType.BIGINT : ColumnType.DOUBLE;
                    return Expressions.divide(value(l, depth - 1), value(r, depth - 1));
                }
                ArithmeticOperator op = ArithmeticOperator.values()[random.nextInt(3)];
                if (type == ColumnType.BIGINT) {
                    return Expressions.arithmetic(op, value(ColumnType.BIGINT, depth - 1),
                            value(ColumnType.BIGINT, depth - 1));
                }
                // DOUBLE arithmetic: at least one DOUBLE operand.
                ColumnType other = random.nextBoolean() ? ColumnType.BIGINT : ColumnType.DOUBLE;
                return random.nextBoolean()
                        ? Expressions.arithmetic(op, value(ColumnType.DOUBLE, depth - 1), value(other, depth - 1))
                        : Expressions.arithmetic(op, value(other, depth - 1), value(ColumnType.DOUBLE, depth - 1));
            }
        }
    }

    private ColumnType anyType() {
        // Prefer the types the schema has, so predicates read columns.
        if (random.nextInt(10) != 0) {
            return schema.columns().get(random.nextInt(schema.size())).type();
        }
        return TYPES[random.nextInt(TYPES.length)];
    }

    private Expression columnOf(ColumnType type) {
        List<Integer> candidates = new ArrayList<>();
        for (int i = 0; i < schema.size(); i++) {
            if (schema.columns().get(i).type() == type) {
                candidates.add(i);
            }
        }
        if (candidates.isEmpty()) {
            return null;
        }
        int index = candidates.get(random.nextInt(candidates.size()));
        List<String> spelled = spellings.get(index);
        return column(spelled.get(random.nextInt(spelled.size())));
    }
}
