package io.layoutbench.api.predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.layoutbench.api.LayoutBenchException;
import io.layoutbench.api.dataset.MetadataSchema;

import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed predicates: each must fail with a {@link PredicateParseException} at the right 1-based position, whose
 * first message line names what was expected and what was found.
 */
class PredicateErrorsTest {
    private static final MetadataSchema IMAGENET = MetadataSchema.imageNet();
    private static final String KNOWN = "known columns: filename, label (human_label), filesize_bytes, width, height";

    static Stream<Arguments> malformed() {
        return Stream.of(
                // Empty input and unbalanced parentheses
                unbound("", 1, "Syntax error at column 1: expected a predicate but found end of input"),
                unbound("   ", 1, "Syntax error at column 1: expected a predicate but found end of input"),
                unbound("(width > 5", 11,
                        "Syntax error at column 11: expected ')' to close '(' at column 1 but found end of input"),
                unbound("(((x = 1)", 10,
                        "Syntax error at column 10: expected ')' to close '(' at column 2 but found end of input"),
                unbound("width > 5)", 10,
                        "Syntax error at column 10: expected AND, OR, LIMIT or end of input but found ')'"),
                // Unterminated quotes and bad characters
                unbound("human_label = 'abc", 15,
                        "Unterminated string literal at column 15: expected a closing ' but found end of input"),
                unbound("\"unterminated = 1", 1,
                        "Unterminated quoted identifier at column 1: expected a closing \" but found end of input"),
                unbound("\"\" = 1", 1,
                        "Syntax error at column 1: expected a column name between the double quotes but found \"\""),
                unbound("width # 5", 7,
                        "Syntax error at column 7: expected a column, literal, operator or parenthesis but found '#'"),
                unbound("x ! 1", 3, "Syntax error at column 3: expected '!=' but found '!' alone"),
                // Incomplete expressions and trailing garbage
                unbound("width >", 8, "Syntax error at column 8: expected an expression but found end of input"),
                unbound("width = = 5", 9, "Syntax error at column 9: expected an expression but found '='"),
                unbound("width > 5 AND", 14, "Syntax error at column 14: expected an expression but found end of"
                        + " input"),
                unbound("NOT", 4, "Syntax error at column 4: expected an expression but found end of input"),
                unbound("width > 5;", 10,
                        "Syntax error at column 10: expected AND, OR, LIMIT or end of input but found ';'"),
                unbound("width 500", 7,
                        "Syntax error at column 7: expected AND, OR, LIMIT or end of input but found integer 500"),
                unbound("width BETWEEN 1 OR 2", 17, "Syntax error at column 17: expected AND between the bounds of"
                        + " BETWEEN at column 7 but found keyword OR"),
                unbound("1 < width < 5", 11, "Syntax error at column 11: expected AND, OR, LIMIT or end of input"
                        + " (comparisons cannot be chained) but found '<'"),
                unbound("width NOT 5", 11, "Syntax error at column 11: expected IN, LIKE or BETWEEN after NOT but found"
                        + " integer 5"),
                unbound("x IS 5", 6, "Syntax error at column 6: expected NULL after IS but found integer 5"),
                // Unknown functions and CAST
                unbound("UPPER(human_label) = 'X'", 1, "Unknown function at column 1: expected a column, a literal"
                        + " or CAST(... AS BIGINT|DOUBLE) but found function UPPER(...); functions are not supported"),
                unbound("CAST(width AS VARCHAR) > 1", 15,
                        "Unsupported CAST type at column 15: expected BIGINT or DOUBLE but found identifier VARCHAR"),
                unbound("CAST(width DOUBLE) > 1", 12, "Syntax error at column 12: expected AS in CAST(... AS"
                        + " BIGINT|DOUBLE) but found identifier DOUBLE"),
                // IN lists
                unbound("human_label IN ()", 17,
                        "Empty IN list at column 17: expected at least one value but found ')'"),
                unbound("human_label IN ('a', 'b'", 25, "Syntax error at column 25: expected ',' or ')' to close the"
                        + " IN list opened at column 16 but found end of input"),
                unbound("x IN (1,)", 9, "Syntax error at column 9: expected an expression but found ')'"),
                unbound("human_label IN ('a', 1)", 13,
                        "Type mismatch at column 13: IN list mixes STRING and BIGINT values: 'a' and 1"),
                unbound("width IN (height)", 11,
                        "Unsupported IN list value at column 11: expected a constant but found height"),
                // LIKE
                unbound("human_label LIKE 5", 18, "Invalid LIKE pattern at column 18: expected a string literal"
                        + " such as '%snake' but found integer 5"),
                unbound("human_label LIKE human_label", 18, "Invalid LIKE pattern at column 18: expected a string"
                        + " literal such as '%snake' but found identifier human_label"),
                // Numbers and constants
                unbound("width > 99999999999999999999", 9, "Number out of range at column 9: 99999999999999999999"
                        + " does not fit in a BIGINT (-9223372036854775808 to 9223372036854775807)"),
                unbound("width > 1e999", 9, "Number out of range at column 9: 1e999 is too large for a DOUBLE"),
                unbound("filesize_bytes > 500KB", 21, "Syntax error at column 21: expected an operator or a space"
                        + " after the number 500 but found 'K'"),
                unbound("x = 1e", 7, "Syntax error at column 7: expected digits after the exponent of 1e but found"
                        + " end of input"),
                unbound("width > 9223372036854775807 + 1", 29,
                        "BIGINT overflow at column 29: 9223372036854775807 + 1 does not fit in a BIGINT"),
                unbound("width / 0 > 1", 9, "Division by zero at column 9: width / 0 divides by a zero literal (a"
                        + " divisor that is zero only at evaluation time yields NULL)"),
                bound("width / (2 - 2) > 1", 9, "Division by zero at column 9: width / 0 divides by a zero literal"
                        + " (a divisor that is zero only at evaluation time yields NULL)"),
                unbound("human_label = NULL", 15, "Unsupported NULL literal at column 15: expected IS NULL or IS NOT"
                        + " NULL to test for NULL but found NULL as a value"),
                // LIMIT
                unbound("width > 5 LIMIT -1", 17,
                        "Invalid LIMIT at column 17: expected a non-negative integer after LIMIT but found -1"),
                unbound("width > 5 LIMIT 1.5", 17, "Invalid LIMIT at column 17: expected a non-negative integer"
                        + " after LIMIT but found number 1.5"),
                unbound("width > 5 LIMIT", 16, "Invalid LIMIT at column 16: expected a non-negative integer after"
                        + " LIMIT but found end of input"),
                unbound("width > 5 LIMIT abc", 17, "Invalid LIMIT at column 17: expected a non-negative integer"
                        + " after LIMIT but found identifier abc"),
                unbound("width > 5 LIMIT 10 LIMIT 5", 20, "Syntax error at column 20: expected end of input after"
                        + " LIMIT 10 but found keyword LIMIT"),
                // Types without a schema (literals and operators alone)
                unbound("width + 1", 1, "Type mismatch at column 1: a WHERE clause must be a BOOLEAN predicate but"
                        + " width + 1 (numeric) is not: expected BOOLEAN but found numeric"),
                unbound("5 AND width > 1", 1, "Type mismatch at column 1: AND needs BOOLEAN operands but 5 (BIGINT)"
                        + " is not: expected BOOLEAN but found BIGINT"),
                unbound("'a' < 1", 5, "Type mismatch at column 5: cannot compare 'a' (STRING) with 1 (BIGINT)"
                        + " using <: expected a STRING value but found BIGINT"),
                // Types and columns against the schema
                bound("lable = 'x'", 1, "Unknown column at column 1: 'lable' is not a column of this dataset; "
                        + KNOWN),
                bound("human_label = 5", 13, "Type mismatch at column 13: cannot compare human_label (STRING) with"
                        + " 5 (BIGINT) using =: expected a STRING value but found BIGINT"),
                bound("width > 'a'", 7, "Type mismatch at column 7: cannot compare width (BIGINT) with 'a'"
                        + " (STRING) using >: expected a numeric value but found STRING"),
                bound("width LIKE 'a%'", 7, "Type mismatch at column 7: LIKE needs a STRING operand but width"
                        + " (BIGINT) is not: expected STRING but found BIGINT"),
                bound("human_label + 1 > 2", 13, "Type mismatch at column 13: operator + needs numeric operands but"
                        + " human_label (STRING) is not: expected BIGINT or DOUBLE but found STRING"),
                bound("-human_label = 1", 1, "Type mismatch at column 1: unary - needs a numeric operand but"
                        + " human_label (STRING) is not: expected BIGINT or DOUBLE but found STRING"),
                bound("CAST(human_label AS DOUBLE) > 1", 1, "Type mismatch at column 1: cannot CAST human_label"
                        + " (STRING) AS DOUBLE: expected a BIGINT or DOUBLE value but found STRING"),
                bound("NOT width", 5, "Type mismatch at column 5: NOT needs a BOOLEAN operand but width (BIGINT) is"
                        + " not: expected BOOLEAN but found BIGINT"),
                bound("width IS NULL AND label", 19, "Type mismatch at column 19: AND needs BOOLEAN operands but"
                        + " label (STRING) is not: expected BOOLEAN but found STRING"),
                bound("filesize_bytes AND FALSE", 1, "Type mismatch at column 1: AND needs BOOLEAN operands but"
                        + " filesize_bytes (BIGINT) is not: expected BOOLEAN but found BIGINT"),
                bound("human_label IN (1, 2)", 13, "Type mismatch at column 13: IN list value 1 (BIGINT) cannot"
                        + " match human_label (STRING): expected a STRING value but found BIGINT"),
                bound("width", 1, "Type mismatch at column 1: a WHERE clause must be a BOOLEAN predicate but width"
                        + " (BIGINT) is not: expected BOOLEAN but found BIGINT"));
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @MethodSource("malformed")
    void failsWithPositionExpectedAndFound(String sql, boolean withSchema, int position, String headline) {
        PredicateParseException e = catchThrowableOfType(PredicateParseException.class,
                () -> {
                    if (withSchema) {
                        Query.parse(sql, IMAGENET);
                    } else {
                        Query.parse(sql);
                    }
                });
        assertThat(e).as("no error for %s", sql).isNotNull();
        assertThat(e).isInstanceOf(PredicateException.class).isInstanceOf(LayoutBenchException.class);
        assertThat(e.position()).isEqualTo(position);
        assertThat(e.getMessage().lines().findFirst().orElseThrow()).isEqualTo(headline);
        assertThat(e.sql()).isEqualTo(sql);
    }

    @Test
    void messageEndsWithTheLineAndACaret() {
        PredicateParseException e = catchThrowableOfType(PredicateParseException.class,
                () -> Query.parse("human_label = 5", IMAGENET));
        assertThat(e.getMessage()).endsWith("\nhuman_label = 5\n            ^");
        assertThat(e.reason()).isEqualTo("Type mismatch: cannot compare human_label (STRING) with 5 (BIGINT) using"
                + " =: expected a STRING value but found BIGINT");
    }

    @Test
    void multiLineInputReportsLineAndColumn() {
        PredicateParseException e = catchThrowableOfType(PredicateParseException.class,
                () -> Query.parse("width > 5 AND\n  height >\n"));
        assertThat(e.line()).isEqualTo(2);
        assertThat(e.column()).isEqualTo(11);
        assertThat(e.position()).isEqualTo(25);
        assertThat(e.getMessage()).isEqualTo("Syntax error at line 2, column 11: expected an expression but found"
                + " end of input\n  height >\n          ^");
    }

    @Test
    void overlongInputIsRejectedBeforeTokenizing() {
        String sql = "x IN (" + "'aaaaaaaaa', ".repeat(7000) + "'b')";
        PredicateParseException e = catchThrowableOfType(PredicateParseException.class, () -> Query.parse(sql));
        assertThat(e.position()).isEqualTo(Query.MAX_LENGTH + 1);
        assertThat(e.getMessage()).startsWith("Input too long at column 65537: expected at most 65536 characters but"
                + " found 91010\n...");
        // The excerpt is a window around the caret, not 64 KiB of text.
        assertThat(e.getMessage().length()).isLessThan(400);
    }

    @Test
    void deepNestingIsRejectedBeforeTheStackOverflows() {
        String parens = "(".repeat(100_000) + "x = 1" + ")".repeat(100_000);
        assertThatThrownBy(() -> Query.parse(parens.substring(0, 60_000)))
                .isInstanceOf(PredicateParseException.class)
                .hasMessageStartingWith("Expression too deep at column 129: expected at most 128 levels of nested"
                        + " parentheses and CASTs (Query.MAX_DEPTH) but found 129");
        String chain = "x" + " + x".repeat(10_000) + " > 1";
        assertThatThrownBy(() -> Query.parse(chain))
                .hasMessageStartingWith("Expression too deep at column 511: + over x" + " + x".repeat(14) + "... would"
                        + " be 129 levels of nested operators, more than the limit of 128 (Query.MAX_DEPTH)");
        String minus = "- ".repeat(20_000) + "x > 1";
        assertThatThrownBy(() -> Query.parse(minus)).hasMessageContaining("Expression too deep");
        String nots = "NOT ".repeat(10_000) + "x = 1";
        assertThat(Query.parse(nots).where()).as("an even number of NOTs cancels").hasToString("x = 1");
        String casts = "CAST(".repeat(200) + "x" + " AS DOUBLE)".repeat(200) + " > 1";
        assertThatThrownBy(() -> Query.parse(casts)).hasMessageContaining("Expression too deep");
    }

    @Test
    void bindingErrorsNameTheProblemWithoutAPosition() {
        assertThatThrownBy(() -> Query.parse("x = 1").bind(IMAGENET))
                .isExactlyInstanceOf(PredicateException.class)
                .hasMessage("Unknown column: 'x' is not a column of this dataset; " + KNOWN);
        assertThatThrownBy(() -> Query.parse("human_label = 5").bind(IMAGENET))
                .hasMessage("Type mismatch: cannot compare human_label (STRING) with 5 (BIGINT) using =: expected a"
                        + " STRING value but found BIGINT");
        assertThatThrownBy(() -> Query.parse("width").bind(IMAGENET))
                .hasMessage("Type mismatch: a WHERE clause must be a BOOLEAN predicate but width (BIGINT) is not:"
                        + " expected BOOLEAN but found BIGINT");
    }

    private static Arguments unbound(String sql, int position, String headline) {
        return Arguments.of(sql, false, position, headline);
    }

    private static Arguments bound(String sql, int position, String headline) {
        return Arguments.of(sql, true, position, headline);
    }
}
