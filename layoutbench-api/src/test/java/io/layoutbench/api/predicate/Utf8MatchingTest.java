package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;

import io.layoutbench.api.dataset.Column;
import io.layoutbench.api.dataset.ColumnType;
import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.function.Function;

import org.junit.jupiter.api.Test;

/**
 * STRING tests run on the dictionary's UTF-8 bytes (LIKE, ordering) or its hash index (=, IN) must answer as
 * {@link String} does, for characters of every UTF-8 length: 1 to 3 bytes, U+E000.. (which UTF-16 orders after the
 * supplementary characters), and 4-byte characters, which are two UTF-16 units for {@code _}.
 */
class Utf8MatchingTest {
    private static final String[] CHARACTERS = {"a", "b", "_", "%", "é", "€", "\uE000", "\uFFFD", "😀", "😁"};
    private static final MetadataSchema SCHEMA = new MetadataSchema(List.of(new Column("s", ColumnType.STRING)));

    @Test
    void likeOnBytesMatchesLikeOnStrings() {
        Random random = new Random(7);
        for (int i = 0; i < 20_000; i++) {
            String pattern = randomString(random, true);
            String value = randomString(random, false);
            LikePattern like = LikePattern.compile(pattern);
            byte[] utf8 = ("xy" + value).getBytes(StandardCharsets.UTF_8);
            assertThat(like.matches(utf8, 2, utf8.length)).as("'%s' LIKE '%s'", value, pattern)
                    .isEqualTo(like.matches(value));
        }
    }

    @Test
    void orderOnBytesIsStringOrder() {
        Random random = new Random(11);
        for (int i = 0; i < 20_000; i++) {
            String a = randomString(random, false);
            String b = randomString(random, false);
            byte[] utf8 = a.getBytes(StandardCharsets.UTF_8);
            assertThat(Scalars.compareUtf8(utf8, 0, utf8.length, b.getBytes(StandardCharsets.UTF_8)))
                    .as("'%s' vs '%s'", a, b).isEqualTo(Integer.signum(a.compareTo(b)));
        }
    }

    @Test
    void columnarEvaluatorAgreesWithRowEvaluatorOnAnyCharacters() {
        Random random = new Random(13);
        for (int round = 0; round < 300; round++) {
            List<MetadataRow> rows = new ArrayList<>();
            for (int r = random.nextInt(40); r > 0; r--) {
                rows.add(new MetadataRow(SCHEMA, Arrays.asList(random.nextInt(8) == 0 ? null
                        : randomString(random, false))));
            }
            ColumnarTable table = ColumnarTable.of(SCHEMA, rows);
            String constant = random.nextBoolean() && !rows.isEmpty() && rows.get(0).get(0) != null
                    ? (String) rows.get(0).get(0) : randomString(random, false);
            List<Function<Expression, Expression>> predicates = List.of(
                    s -> Expressions.like(s, randomString(random, true)),
                    s -> Expressions.notLike(s, randomString(random, true)),
                    s -> Expressions.comparison(ComparisonOperator.values()[random.nextInt(6)], s,
                            Expressions.lit(constant)),
                    s -> Expressions.in(s, constant, randomString(random, false)),
                    s -> Expressions.notIn(s, constant, "\uD800"));
            for (Function<Expression, Expression> predicate : predicates) {
                BoundPredicate bound = predicate.apply(Expressions.column("s")).bind(SCHEMA);
                List<Integer> expected = new ArrayList<>();
                for (int r = 0; r < rows.size(); r++) {
                    if (Boolean.TRUE.equals(bound.evaluate(rows.get(r)))) {
                        expected.add(r);
                    }
                }
                assertThat(Arrays.stream(bound.select(table).toArray()).boxed().toList())
                        .as("%s over %s", bound, rows).isEqualTo(expected);
            }
        }
    }

    private static String randomString(Random random, boolean pattern) {
        StringBuilder s = new StringBuilder();
        for (int n = random.nextInt(6); n > 0; n--) {
            int pick = random.nextInt(pattern ? CHARACTERS.length + 3 : CHARACTERS.length);
            s.append(pick < CHARACTERS.length ? CHARACTERS[pick] : pick == CHARACTERS.length ? "%" : "_");
        }
        return s.toString();
    }
}
