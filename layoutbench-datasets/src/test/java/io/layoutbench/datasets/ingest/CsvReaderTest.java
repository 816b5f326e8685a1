package io.layoutbench.datasets.ingest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

class CsvReaderTest {

    @Test
    void readsRfc4180() throws IOException {
        String text = "\uFEFFpath,label,note\r\n"
                + "a.jpg,tench,\r\n"
                + "\"b, c.jpg\",\"gold\"\"fish\",\"two\r\nlines\"\r\n"
                + "\r\n"
                + "d.jpg,,\"\"\n"
                + "e.jpg,x,last";
        CsvReader csv = new CsvReader(new StringReader(text), "m.csv");

        List<List<String>> records = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        for (List<String> r = csv.next(); r != null; r = csv.next()) {
            records.add(r);
            lines.add(csv.recordLine());
        }

        assertThat(records).containsExactly(
                List.of("path", "label", "note"),
                List.of("a.jpg", "tench", ""),
                List.of("b, c.jpg", "gold\"fish", "two\r\nlines"),
                List.of("d.jpg", "", ""),
                List.of("e.jpg", "x", "last"));
        assertThat(lines).containsExactly(1, 2, 3, 6, 7);
        assertThat(csv.next()).isNull();
    }

    @Test
    void unclosedQuoteNamesWhereItOpened() {
        CsvReader csv = new CsvReader(new StringReader("a,b\nx,\"never\nclosed"), "m.csv");
        assertThatThrownBy(() -> {
            csv.next();
            csv.next();
        }).isInstanceOf(CsvFormatException.class)
                .hasMessage("m.csv line 2, column 3: quoted field is never closed (the input ends inside it)");
    }

    @Test
    void strayQuotesAreErrors() {
        assertThatThrownBy(() -> new CsvReader(new StringReader("ab\"c,d"), "m.csv").next())
                .isInstanceOf(CsvFormatException.class)
                .hasMessageContaining("m.csv line 1, column 3: quote inside an unquoted field");
        assertThatThrownBy(() -> new CsvReader(new StringReader("\"ab\"c,d"), "m.csv").next())
                .isInstanceOf(CsvFormatException.class)
                .hasMessageContaining("m.csv line 1, column 5: 'c' after a closing quote");
    }
}
