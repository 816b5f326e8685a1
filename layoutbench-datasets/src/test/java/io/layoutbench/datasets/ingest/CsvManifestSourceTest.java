package io.layoutbench.datasets.ingest;

import static io.layoutbench.datasets.image.TestImages.encode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.layoutbench.api.dataset.MetadataRow;
import io.layoutbench.api.dataset.Sample;
import io.layoutbench.api.dataset.SampleNames;
import io.layoutbench.datasets.image.UnknownImageFormatException;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvManifestSourceTest {

    @TempDir
    Path dir;

    private byte[] jpeg;
    private byte[] png;

    @BeforeEach
    void writeImages() throws IOException {
        jpeg = encode("jpeg", 500, 333);
        png = encode("png", 64, 48);
        write("images/one.jpg", jpeg);
        write("images/with, comma \"quoted\".png", png);
        write("elsewhere/three.gif", encode("gif", 10, 20));
    }

    @Test
    void readsPathsRelativeToTheManifestWithQuotedFieldsAndHeaderDimensions() throws IOException {
        Path absolute = dir.resolve("elsewhere/three.gif").toAbsolutePath();
        Path manifest = manifest("lists/train.csv", "\uFEFFPath,Label,split,width,height,filesize_bytes\r\n"
                + "../images/one.jpg,tench,train,,,\r\n"
                + "\"../images/with, comma \"\"quoted\"\".png\",\"gold, fish\",val,64,48," + png.length + "\r\n"
                + absolute + ",tench,train,,20,\r\n");

        CsvManifestSource source = CsvManifestSource.open(manifest);
        List<MetadataRow> rows;
        try (Stream<MetadataRow> stream = source.metadata()) {
            rows = stream.collect(Collectors.toList());
        }

        assertThat(rows).extracting(r -> r.getString("filename")).containsExactly("images/one.jpg",
                "images/with, comma \"quoted\".png", "elsewhere/three.gif");
        assertThat(rows).extracting(r -> r.getString("label")).containsExactly("tench", "gold, fish", "tench");
        assertThat(rows).extracting(r -> r.getLong("width")).containsExactly(500L, 64L, 10L);
        assertThat(rows).extracting(r -> r.getLong("height")).containsExactly(333L, 48L, 20L);
        assertThat(rows.get(0).getLong("filesize_bytes")).isEqualTo(jpeg.length);

        try (Stream<Sample> samples = source.samples()) {
            List<Sample> list = samples.collect(Collectors.toList());
            assertThat(list).extracting(Sample::metadata).containsExactlyElementsOf(rows);
            assertThat(list.get(1).data()).isEqualTo(ByteBuffer.wrap(png));
        }
    }

    @Test
    void filenameColumnNamesTheSampleAndPathFindsIt() throws IOException {
        Path manifest = manifest("m.csv", "filename,path,human_label\nn01440764_1.JPEG,images/one.jpg,tench\n");
        try (Stream<MetadataRow> rows = CsvManifestSource.open(manifest).metadata()) {
            assertThat(rows.map(r -> r.getString("filename") + " " + r.getString("label")))
                    .containsExactly("n01440764_1.JPEG tench");
        }
        Path byName = manifest("n.csv", "filename,label\nimages/one.jpg,tench\n");
        try (Stream<MetadataRow> rows = CsvManifestSource.open(byName, IngestOptions.defaults()
                .withFilenames(IngestOptions.FilenameStyle.FILE_NAME)).metadata()) {
            assertThat(rows.map(r -> r.getString("filename"))).containsExactly("images/one.jpg");
        }
        Path byPath = manifest("p.csv", "path,label\nimages/one.jpg,tench\n");
        try (Stream<MetadataRow> rows = CsvManifestSource.open(byPath, IngestOptions.defaults()
                .withFilenames(IngestOptions.FilenameStyle.FILE_NAME)).metadata()) {
            assertThat(rows.map(r -> r.getString("filename"))).containsExactly("one.jpg");
        }
    }

    @Test
    void absoluteDotDotSpacedAndNonAsciiPathsInSeveralDirectoriesGetRelativeNames() throws IOException {
        write("a/x y/\u00e9t\u00e9.png", png);
        write("b/\u732b.jpg", jpeg);
        write("lists/local/z.gif", encode("gif", 3, 4));
        Path outside = Files.createTempDirectory("layoutbench-outside-");
        try {
            Files.write(outside.resolve("far away.png"), png);
            Path manifest = manifest("lists/m.csv", "path,label\n"
                    + dir.resolve("a/x y/\u00e9t\u00e9.png").toAbsolutePath() + ",x\n"
                    + "../b/\u732b.jpg,y\n"
                    + "./local/../local/z.gif,z\n"
                    + outside.resolve("far away.png") + ",w\n");
            CsvManifestSource source = CsvManifestSource.open(manifest);
            List<Sample> samples;
            try (Stream<Sample> stream = source.samples()) {
                samples = stream.collect(Collectors.toList());
            }
            String far = dir.getParent().relativize(outside).resolve("far away.png").toString();
            assertThat(samples).extracting(Sample::filename).containsExactly("a/x y/\u00e9t\u00e9.png",
                    "b/\u732b.jpg", "local/z.gif", SampleNames.fromPath(far));
            assertThat(samples.get(1).data()).isEqualTo(ByteBuffer.wrap(jpeg));
            assertThat(samples.get(3).data()).isEqualTo(ByteBuffer.wrap(png));
            assertThat(samples).extracting(Sample::filename).allMatch(SampleNames::isValid);
            try (Stream<Path> files = source.files()) {
                assertThat(files).containsExactly(dir.resolve("a/x y/\u00e9t\u00e9.png").toAbsolutePath(),
                        dir.resolve("lists/../b/\u732b.jpg").toAbsolutePath(),
                        dir.resolve("lists/./local/../local/z.gif").toAbsolutePath(), outside.resolve("far away.png"));
            }
        } finally {
            Files.deleteIfExists(outside.resolve("far away.png"));
            Files.delete(outside);
        }
    }

    @Test
    void aRepeatedSampleNameFailsNamingBothLines() throws IOException {
        write("a/dup.png", png);
        write("b/dup.png", jpeg);
        Path declared = manifest("m.csv", "path,filename,label\na/dup.png,dup.png,x\nimages/one.jpg,,y\n"
                + "b/dup.png,dup.png,z\n");
        for (boolean samples : List.of(true, false)) {
            CsvManifestSource source = CsvManifestSource.open(declared);
            try (Stream<?> stream = samples ? source.samples() : source.metadata()) {
                assertThatThrownBy(stream::count).isInstanceOf(IngestException.class).hasMessage(declared
                        + " line 4: sample name 'dup.png' (" + dir.resolve("b/dup.png") + ") is already the name of "
                        + declared + " line 2 (" + dir.resolve("a/dup.png") + "); the samples of a dataset need "
                        + "distinct names, as the layouts store and find them by name: give the rows distinct values "
                        + "in a 'filename' column");
            }
        }
        write("lists/images/one.jpg", jpeg);
        Path derived = manifest("lists/d.csv", "path,label\nimages/one.jpg,x\n../images/one.jpg,y\n");
        try (Stream<MetadataRow> rows = CsvManifestSource.open(derived).metadata()) {
            assertThatThrownBy(rows::count).hasMessageContaining(derived + " line 3: sample name 'images/one.jpg' (")
                    .hasMessageContaining("is already the name of " + derived + " line 2");
        }
        Path twice = manifest("t.csv", "path,label\nimages/one.jpg,x\nimages/../images/one.jpg,x\n");
        try (Stream<MetadataRow> rows = CsvManifestSource.open(twice).metadata()) {
            assertThatThrownBy(rows::count).hasMessageStartingWith(twice + " line 3: lists ")
                    .hasMessageContaining(" again, as " + twice + " line 2 does; ");
        }
        Path byFileName = manifest("f.csv", "path,label\na/dup.png,x\nb/dup.png,y\n");
        try (Stream<MetadataRow> rows = CsvManifestSource.open(byFileName, IngestOptions.defaults()
                .withFilenames(IngestOptions.FilenameStyle.FILE_NAME)).metadata()) {
            assertThatThrownBy(rows::count).hasMessageContaining(byFileName + " line 3: sample name 'dup.png'");
        }
    }

    @Test
    void aDeclaredFilenameMustBeARelativeName() throws IOException {
        assertFirstRecordFails("path,filename,label\nimages/one.jpg,/etc/passwd,x\n",
                "line 2: filename '/etc/passwd' starts with '/'; a sample name is a relative path (leave it empty to "
                        + "name the sample after its path)");
        assertFirstRecordFails("path,filename,label\nimages/one.jpg,../one.jpg,x\n",
                "line 2: filename '../one.jpg' has a '..' segment");
        Path filenameOnly = manifest("lists/o.csv", "filename,label\n../images/one.jpg,x\n");
        try (Stream<MetadataRow> rows = CsvManifestSource.open(filenameOnly).metadata()) {
            assertThat(rows.map(r -> r.getString("filename"))).as("a filename column alone locates the file")
                    .containsExactly("images/one.jpg");
        }
    }

    @Test
    void declaredValuesAreTrustedForMetadataAndCheckedForSamples() throws IOException {
        Path manifest = manifest("m.csv", "path,label,width,height,filesize\n"
                + "missing.jpg,tench,1,2,3\n"
                + "images/one.jpg,tench,500,333,12\n");
        CsvManifestSource source = CsvManifestSource.open(manifest);

        try (Stream<MetadataRow> rows = source.metadata()) {
            assertThat(rows.count()).isEqualTo(2);
        }
        try (Stream<Sample> samples = source.samples()) {
            assertThatThrownBy(samples::count)
                    .isInstanceOf(IngestException.class)
                    .hasMessageContaining(manifest + " line 2, column path: file ")
                    .hasMessageContaining("missing.jpg does not exist");
        }
        Path mismatch = manifest("x.csv", "path,label,filesize_bytes\nimages/one.jpg,tench,12\n");
        try (Stream<Sample> samples = CsvManifestSource.open(mismatch).samples()) {
            assertThatThrownBy(samples::count)
                    .hasMessageContaining(mismatch + " line 2: declares filesize_bytes 12 but ")
                    .hasMessageContaining("has " + jpeg.length + " bytes");
        }
    }

    @Test
    void declaredDimensionsAdmitUnknownFormats() throws IOException {
        write("images/scan.tiff", new byte[] {'I', 'I', 42, 0, 8, 0, 0, 0});
        Path declared = manifest("d.csv", "path,label,width,height\nimages/scan.tiff,doc,100,200\n");
        try (Stream<Sample> samples = CsvManifestSource.open(declared).samples()) {
            assertThat(samples.map(s -> s.metadata().getLong("width"))).containsExactly(100L);
        }
        Path undeclared = manifest("u.csv", "path,label\nimages/scan.tiff,doc\nimages/one.jpg,tench\n");
        try (Stream<MetadataRow> rows = CsvManifestSource.open(undeclared).metadata()) {
            assertThatThrownBy(rows::count).isInstanceOf(UnknownImageFormatException.class)
                    .hasMessageContaining("scan.tiff");
        }
        IngestOptions skip = IngestOptions.defaults().withUnknownFormats(IngestOptions.UnknownFormatPolicy.SKIP);
        try (Stream<MetadataRow> rows = CsvManifestSource.open(undeclared, skip).metadata()) {
            assertThat(rows.map(r -> r.getString("label"))).containsExactly("tench");
        }
    }

    @Test
    void headerProblemsFailOnOpen() throws IOException {
        assertThatThrownBy(() -> CsvManifestSource.open(manifest("a.csv", "file,label\nx,y\n")))
                .isInstanceOf(IngestException.class)
                .hasMessageContaining("line 1: the header has no 'path' or 'filename' column (found: file,label)");
        assertThatThrownBy(() -> CsvManifestSource.open(manifest("b.csv", "path,class\nx,y\n")))
                .hasMessageContaining("no 'label' column");
        assertThatThrownBy(() -> CsvManifestSource.open(manifest("c.csv", "path,label,human_label\n")))
                .hasMessageContaining("columns 2 ('label') and 3 ('human_label') both give label");
        assertThatThrownBy(() -> CsvManifestSource.open(manifest("d.csv", "")))
                .hasMessageContaining("is empty");
        assertThatThrownBy(() -> CsvManifestSource.open(dir.resolve("nope.csv")))
                .isInstanceOf(IngestException.class)
                .hasMessageContaining("Cannot read manifest");
    }

    @Test
    void recordProblemsNameTheLine() throws IOException {
        assertFirstRecordFails("path,label\nimages/one.jpg\n", "line 2: 1 fields, but the header has 2");
        assertFirstRecordFails("path,label\nimages/one.jpg,\n", "line 2: empty label for images/one.jpg");
        assertFirstRecordFails("path,label,width\nimages/one.jpg,tench,wide\n",
                "line 2, column width: 'wide' is not a whole number");
        assertFirstRecordFails("path,label,height\nimages/one.jpg,tench,0\n", "line 2, column height: 0 is below 1");
        assertFirstRecordFails("path,label\n\"images/one.jpg,tench\n",
                "line 2, column 1: quoted field is never closed");
    }

    private void assertFirstRecordFails(String text, String message) throws IOException {
        Path manifest = manifest("bad.csv", text);
        try (Stream<MetadataRow> rows = CsvManifestSource.open(manifest).metadata()) {
            assertThatThrownBy(rows::count).isInstanceOf(IngestException.class)
                    .hasMessageContaining(manifest + " " + message);
        }
    }

    private Path manifest(String relative, String text) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    private void write(String relative, byte[] bytes) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
    }
}
