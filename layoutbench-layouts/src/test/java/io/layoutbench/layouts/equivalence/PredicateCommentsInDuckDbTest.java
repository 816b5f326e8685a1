package io.layoutbench.layouts.equivalence;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.MetadataSchema;
import io.layoutbench.api.predicate.BoundQuery;
import io.layoutbench.api.predicate.PredicateParseException;
import io.layoutbench.api.predicate.Query;
import io.layoutbench.api.predicate.SelectStatement;
import io.layoutbench.datasets.synthetic.ImageNetScale;
import io.layoutbench.datasets.synthetic.SyntheticImageNet;
import io.layoutbench.parquet.testing.DuckDb;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Predicates with SQL comments select the same samples in DuckDB as in the predicate language, over the tiny
 * synthetic ImageNet's metadata: {@code --} and nested {@code /* *}{@code /} are comments, {@code - -1} is
 * arithmetic, and comment marks inside strings are text. Also as WHERE clauses of SELECT statements, with comments
 * after LIMIT.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class PredicateCommentsInDuckDbTest {

    private static final SyntheticImageNet DATA = SyntheticImageNet.of(ImageNetScale.TINY, 42, false);
    private static final MetadataSchema SCHEMA = MetadataSchema.imageNet();

    private Connection duckdb;

    @BeforeAll
    void loadTheMetadataIntoDuckDb(@TempDir Path dir) throws SQLException {
        duckdb = DuckDb.connect(dir);
        try (Statement create = duckdb.createStatement()) {
            create.execute("CREATE TABLE images (filename VARCHAR, human_label VARCHAR, filesize_bytes BIGINT,"
                    + " width BIGINT, height BIGINT)");
        }
        try (PreparedStatement insert = duckdb.prepareStatement("INSERT INTO images VALUES (?, ?, ?, ?, ?)")) {
            for (long i = 0; i < DATA.size(); i++) {
                MetadataRow row = DATA.metadata(i);
                insert.setString(1, row.getString(MetadataSchema.FILENAME));
                insert.setString(2, row.getString(MetadataSchema.LABEL));
                insert.setLong(3, row.getLong(MetadataSchema.FILESIZE_BYTES));
                insert.setLong(4, row.getLong(MetadataSchema.WIDTH));
                insert.setLong(5, row.getLong(MetadataSchema.HEIGHT));
                insert.addBatch();
            }
            insert.executeBatch();
        }
    }

    @AfterAll
    void disconnect() throws SQLException {
        duckdb.close();
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
            "filesize_bytes > 0 -- 1000000000",
            "filesize_bytes > 0 - -100000",
            "width > 400--400",
            "width > 300 -/* between the minuses */- 100",
            "/* lead */ human_label /* a /* nested */ one */ = 'tench'",
            "width > 800 //* a comment, then the division */ 2",
            "width > 500 -- wide\nAND height > 500 /* and\ntall */",
            "human_label = 'a--b' OR human_label LIKE '%/*%' OR human_label LIKE '%-%' OR width < 300",
            "width > 100 LIMIT 7 -- seven",
            "LIMIT /* n */ 3 -- the first three"})
    void duckDbSelectsTheSameSamples(String predicate) throws SQLException {
        BoundQuery query = Query.parse(predicate, SCHEMA).bind(SCHEMA);
        // The predicate's LIMIT, if any, goes after the WHERE clause in DuckDB.
        int limit = predicate.indexOf("LIMIT");
        String where = limit < 0 ? predicate : predicate.substring(0, limit);
        String sql = "SELECT filename FROM images WHERE " + (where.isBlank() ? "TRUE" : where) + "\nORDER BY rowid"
                + (limit < 0 ? "" : "\n" + predicate.substring(limit));
        List<String> duck = filenames(sql);
        assertThat(duck).isNotEmpty();
        assertThat(ours(query)).containsExactlyElementsOf(duck);
        if (predicate.startsWith("filesize_bytes > 0 -- ")) {
            assertThat(duck).hasSize((int) DATA.size());
        }
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {
            "SELECT filename FROM images WHERE filesize_bytes > 0 -- 1000000000",
            "SELECT /* what */ filename -- items\nFROM images WHERE width > 500 /* c */ LIMIT 5 -- five",
            "SELECT filename FROM images -- no WHERE\nLIMIT 4; -- done"})
    void selectStatementsReadCommentsAsDuckDbDoes(String statement) throws SQLException {
        SelectStatement parsed = SelectStatement.parse(statement, SCHEMA);
        // DuckDB gives no order without ORDER BY; both are in table order here, which rowid makes explicit.
        String ordered = statement.replaceFirst("LIMIT", "ORDER BY rowid LIMIT");
        List<String> duck = filenames(ordered.contains("ORDER BY") ? ordered : statement + "\nORDER BY rowid");
        assertThat(duck).isNotEmpty();
        assertThat(ours(parsed.where().bind(SCHEMA))).containsExactlyElementsOf(duck);
    }

    @ParameterizedTest(name = "[{index}] {0}")
    @ValueSource(strings = {"width > 5 /* unterminated", "width > 5 /* a /* nested */ b"})
    void anUnterminatedCommentFailsInBoth(String predicate) {
        assertThatThrownBy(() -> filenames("SELECT filename FROM images WHERE " + predicate))
                .isInstanceOf(SQLException.class).hasMessageContaining("unterminated /* comment");
        assertThatThrownBy(() -> Query.parse(predicate)).isInstanceOf(PredicateParseException.class)
                .hasMessageStartingWith("Unterminated comment at column 11: expected a closing */");
    }

    private List<String> filenames(String sql) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement statement = duckdb.createStatement(); ResultSet rows = statement.executeQuery(sql)) {
            while (rows.next()) {
                names.add(rows.getString(1));
            }
        }
        return names;
    }

    private static List<String> ours(BoundQuery query) {
        long limit = query.limit().orElse(Long.MAX_VALUE);
        List<String> names = new ArrayList<>();
        for (long i = 0; i < DATA.size() && names.size() < limit; i++) {
            if (query.test(DATA.metadata(i))) {
                names.add(DATA.metadata(i).getString(MetadataSchema.FILENAME));
            }
        }
        return names;
    }
}
