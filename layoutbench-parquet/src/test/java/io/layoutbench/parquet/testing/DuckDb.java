package io.layoutbench.parquet.testing;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** An in-memory DuckDB connection for interoperability tests, kept from writing under the user's home. */
public final class DuckDb {

    private DuckDb() {
    }

    /**
     * Connects with {@code dir} as DuckDB's home and extension directory, and extension auto-install and
     * auto-load off (this machine cannot download extensions, and a test must not try).
     */
    public static Connection connect(Path dir) throws SQLException {
        Path home = dir.resolve("duckdb-home");
        Properties properties = new Properties();
        properties.setProperty("home_directory", home.toString());
        properties.setProperty("extension_directory", home.resolve("extensions").toString());
        properties.setProperty("autoinstall_known_extensions", "false");
        properties.setProperty("autoload_known_extensions", "false");
        return DriverManager.getConnection("jdbc:duckdb:", properties);
    }
}
