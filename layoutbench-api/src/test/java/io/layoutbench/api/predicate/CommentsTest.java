package io.layoutbench.api.predicate;

import static io.layoutbench.api.predicate.Expressions.column;
import static io.layoutbench.api.predicate.Expressions.greaterThan;
import static io.layoutbench.api.predicate.Expressions.lit;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.layoutbench.api.dataset.MetadataSchema;

import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

/**
 * SQL comments, read as DuckDB reads them ({@code PredicateCommentsInDuckDbTest} in the layouts module runs the same
 * text in DuckDB): {@code --} to the end of the line, {@code /* *}{@code /} nesting, and neither inside strings.
 */
class CommentsTest {
    private static final MetadataSchema IMAGENET = MetadataSchema.imageNet();

    @Test
    void twoMinusesStartALineComment() {
        assertThat(where("filesize_bytes > 0 -- 1000000000"))
                .isEqualTo(greaterThan(column("filesize_bytes"), lit(0)));
        assertThat(where("width > 1--1")).isEqualTo(greaterThan(column("width"), lit(1)));
        assertThat(where("width > 5 -- wide\nAND height > 5 -- and tall")).hasToString("width > 5 AND height > 5");
        assertThat(where("width > 5 -- a carriage return ends it too\rAND height > 5"))
                .hasToString("width > 5 AND height > 5");
        assertThat(where("-- all of them\nwidth > 0")).hasToString("width > 0");
    }

    @Test
    void minusSpaceMinusStaysArithmetic() {
        assertThat(where("filesize_bytes > 0 - -1000000000"))
                .isEqualTo(greaterThan(column("filesize_bytes"), lit(1_000_000_000)));
        assertThat(where("width > - -1")).isEqualTo(greaterThan(column("width"), lit(1)));
        assertThat(where("width > 3 -/* between */- 4")).isEqualTo(greaterThan(column("width"), lit(7)));
    }

    @Test
    void blockCommentsNest() {
        assertThat(where("/* lead */ width /* a /* nested */ b */ > /**/ 5")).hasToString("width > 5");
        assertThat(where("width > 8 //* a comment, then the division */ 2"))
                .isEqualTo(greaterThan(column("width"), lit(4.0)));
        assertThat(where("width > 5 /* several\nlines */ AND height > 5")).hasToString("width > 5 AND height > 5");
    }

    @Test
    void commentMarksInsideStringsAndQuotedNamesAreText() {
        assertThat(where("human_label = 'a--b' OR human_label LIKE '%/*%'"))
                .hasToString("human_label = 'a--b' OR human_label LIKE '%/*%'");
        assertThat(Query.parse("\"x--y\" = 1").where()).isEqualTo(Expressions.equal(column("x--y"), lit(1)));
    }

    @Test
    void commentsAroundAndAfterLimit() {
        assertThat(Query.parse("width > 5 LIMIT 10 -- ten")).isEqualTo(Query.of(where("width > 5")).withLimit(10));
        assertThat(Query.parse("width > 5 LIMIT /* n */ 10")).isEqualTo(Query.of(where("width > 5")).withLimit(10));
        assertThat(Query.parse("LIMIT 3 -- the first three").limit()).isEqualTo(OptionalLong.of(3));
    }

    @Test
    void commentsInsideSelectStatements() {
        SelectStatement s = SelectStatement.parse("SELECT /* what */ filename, COUNT(*) -- items\n"
                + "FROM images /* where */ WHERE width > 5 -- 1000\n"
                + "GROUP BY filename LIMIT 3 -- three\n", IMAGENET);
        assertThat(s.where()).isEqualTo(Query.of(where("width > 5")).withLimit(3));
        assertThat(s.from()).isEqualTo("images");
        assertThat(SelectStatement.parse("SELECT * FROM t WHERE width > 5 LIMIT 3; -- done").where().limit())
                .isEqualTo(OptionalLong.of(3));
    }

    @Test
    void anUnterminatedBlockCommentIsAnErrorAtItsStart() {
        PredicateParseException e = error("width > 5 /* open");
        assertThat(e.position()).isEqualTo(11);
        assertThat(e.getMessage()).isEqualTo("Unterminated comment at column 11: expected a closing */ but found end"
                + " of input\nwidth > 5 /* open\n          ^");
        assertThat(error("width > 5 /* a /* b */ c").getMessage().lines().findFirst().orElseThrow())
                .isEqualTo("Unterminated comment at column 11: expected a closing */ but found end of input"
                        + " (comments nest: each /* inside a comment needs its own */)");
    }

    @Test
    void endOfInputIsReportedAfterTheLastTokenNotAfterAComment() {
        PredicateParseException e = error("width > -- nothing here");
        assertThat(e.getMessage().lines().findFirst().orElseThrow())
                .isEqualTo("Syntax error at column 8: expected an expression but found end of input");
        assertThat(error("-- only a comment").getMessage().lines().findFirst().orElseThrow())
                .isEqualTo("Syntax error at column 1: expected a predicate but found end of input");
        assertThat(error("width > 5 /* c */ LIMIT -- n").getMessage().lines().findFirst().orElseThrow())
                .isEqualTo("Invalid LIMIT at column 24: expected a non-negative integer after LIMIT but found end of"
                        + " input");
    }

    private static Expression where(String sql) {
        return Query.parse(sql, IMAGENET).where();
    }

    private static PredicateParseException error(String sql) {
        PredicateParseException e = catchThrowableOfType(PredicateParseException.class, () -> Query.parse(sql));
        assertThat(e).as("no error for %s", sql).isNotNull();
        return e;
    }
}
