package io.layoutbench.datasets.ingest;

import io.layoutbench.api.dataset.ColumnType;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A pass over a CSV manifest ({@link CsvReader}: RFC 4180, UTF-8): the first record names the columns, each later one
 * is a record with exactly as many fields. Names and values lose surrounding white space, as hand-written manifests
 * put spaces after commas; an empty value is NULL.
 */
final class CsvManifestReader implements ManifestReader {

    private final Path manifest;
    private final CsvReader csv;
    private final List<SourceColumn> columns;
    private final String columnsOrigin;

    private CsvManifestReader(Path manifest, CsvReader csv, List<SourceColumn> columns, String columnsOrigin) {
        this.manifest = manifest;
        this.csv = csv;
        this.columns = columns;
        this.columnsOrigin = columnsOrigin;
    }

    static CsvManifestReader open(Path manifest) {
        CsvReader csv = null;
        try {
            csv = new CsvReader(Files.newBufferedReader(manifest, StandardCharsets.UTF_8), manifest.toString());
            List<String> header = csv.next();
            if (header == null) {
                throw new IngestException("Manifest " + manifest + " is empty; expected a header row such as "
                        + "'path,label'");
            }
            List<SourceColumn> columns = new ArrayList<>(header.size());
            for (String name : header) {
                columns.add(new SourceColumn(name.strip(), Optional.<ColumnType>empty(), Optional.empty()));
            }
            return new CsvManifestReader(manifest, csv, List.copyOf(columns), manifest + " line " + csv.recordLine());
        } catch (IOException e) {
            closeQuietly(csv);
            throw new IngestException("Cannot read manifest " + manifest + ": " + e, e);
        } catch (RuntimeException e) {
            closeQuietly(csv);
            throw e;
        }
    }

    @Override
    public Optional<List<SourceColumn>> columns() {
        return Optional.of(columns);
    }

    @Override
    public String columnsOrigin() {
        return columnsOrigin;
    }

    @Override
    public boolean typedText() {
        return false;
    }

    @Override
    public Record next() {
        List<String> fields;
        try {
            fields = csv.next();
        } catch (IOException e) {
            throw new IngestException("Cannot read manifest " + manifest + ": " + e, e);
        }
        if (fields == null) {
            return null;
        }
        String origin = manifest + " line " + csv.recordLine();
        if (fields.size() != columns.size()) {
            throw new IngestException(origin + ": " + fields.size() + " fields, but the header has " + columns.size());
        }
        Map<String, Object> cells = new LinkedHashMap<>();
        for (int i = 0; i < fields.size(); i++) {
            String value = fields.get(i).strip();
            cells.put(columns.get(i).name(), value.isEmpty() ? null : value);
        }
        return new Record(origin, cells);
    }

    @Override
    public void close() {
        try {
            csv.close();
        } catch (IOException e) {
            throw new IngestException("Cannot close manifest " + manifest + ": " + e, e);
        }
    }

    private static void closeQuietly(CsvReader csv) {
        if (csv != null) {
            try {
                csv.close();
            } catch (IOException ignored) {
                // the open failed already; that error is the one to report
            }
        }
    }
}
