package io.layoutbench.layouts.manifest;

import static java.util.Objects.requireNonNull;

import io.layoutbench.api.backend.CorruptDataException;
import io.layoutbench.api.backend.StorageException;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.zip.CRC32C;

/**
 * A Java properties file that carries its own checksum, for the small text objects a reader trusts whole (dataset
 * manifests, the fac layout's descriptor). Its first line is {@value #HEADER}; its last line is
 * {@code checksum.crc32c=<8 hex digits>}, the CRC32C of every byte before that line. Both lines are ordinary
 * properties, so any properties reader still reads the file. A reader checks the last line, and tells a damaged or
 * cut-short file (the first line says it is checksummed, the last line is missing or does not match) from a file
 * written before checksums (neither line), which the caller refuses or accepts.
 *
 * <pre>{@code
 * byte[] text = ChecksummedProperties.write(properties, "layoutbench dataset manifest");
 * ChecksummedProperties.Read read = ChecksummedProperties.read(backend.readAll(key), key);
 * if (!read.checksummed()) { ...written by an older version... }
 * }</pre>
 */
public final class ChecksummedProperties {

    /** The first line of a checksummed file. */
    public static final String HEADER = "checksum.algorithm=crc32c";
    /** The key of the last line, whose value is the CRC32C of every byte before that line. */
    public static final String CHECKSUM_KEY = "checksum.crc32c";

    private static final Pattern CHECKSUM_LINE = Pattern.compile(Pattern.quote(CHECKSUM_KEY) + "=[0-9a-f]{8}");

    private ChecksummedProperties() {
    }

    /**
     * A file as read.
     *
     * @param properties  its properties, the two checksum lines excluded
     * @param checksummed whether it carried a checksum (and so was checked); false for a file written without one
     */
    public record Read(Properties properties, boolean checksummed) {
        public Read {
            requireNonNull(properties, "properties is null");
        }
    }

    /** {@code properties} as a checksummed properties file (ISO 8859-1, as {@link Properties#store} writes). */
    public static byte[] write(Properties properties, String comment) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            out.write((HEADER + "\n").getBytes(StandardCharsets.ISO_8859_1));
            properties.store(out, comment);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.toByteArray());
        out.writeBytes(String.format("%s=%08x\n", CHECKSUM_KEY, (int) crc.getValue())
                .getBytes(StandardCharsets.ISO_8859_1));
        return out.toByteArray();
    }

    /**
     * Reads and checks a properties file.
     *
     * @param where the object, for errors: "manifest mini/l2/_manifest.properties"
     * @throws CorruptDataException naming {@code where} when the checksum does not match, or the file begins as a
     *                              checksummed file but does not end with its checksum (cut short or damaged)
     * @throws StorageException     naming {@code where} when the text is not a properties file
     */
    public static Read read(ByteBuffer bytes, String where) {
        byte[] text = new byte[bytes.remaining()];
        bytes.duplicate().get(text);
        int end = text.length;
        while (end > 0 && (text[end - 1] == '\n' || text[end - 1] == '\r')) {
            end--;
        }
        int lastLine = end;
        while (lastLine > 0 && text[lastLine - 1] != '\n' && text[lastLine - 1] != '\r') {
            lastLine--;
        }
        String last = new String(text, lastLine, end - lastLine, StandardCharsets.ISO_8859_1);
        if (CHECKSUM_LINE.matcher(last).matches()) {
            int recorded = Integer.parseUnsignedInt(last.substring(CHECKSUM_KEY.length() + 1), 16);
            CRC32C crc = new CRC32C();
            crc.update(text, 0, lastLine);
            if ((int) crc.getValue() != recorded) {
                throw new CorruptDataException(String.format("Checksum mismatch in %s: the CRC32C of its first %d "
                        + "bytes is %08x but its last line records %08x", where, lastLine, (int) crc.getValue(),
                        recorded));
            }
            Properties properties = load(text, lastLine, where);
            properties.remove("checksum.algorithm");
            return new Read(properties, true);
        }
        if (startsWith(text, HEADER)) {
            throw new CorruptDataException("Cannot check " + where + ": it begins as a checksummed file but its last "
                    + "line is not its checksum (cut short or damaged); found '" + abbreviate(last) + "' after "
                    + text.length + " bytes");
        }
        return new Read(load(text, text.length, where), false);
    }

    private static Properties load(byte[] text, int length, String where) {
        Properties properties = new Properties();
        try {
            properties.load(new InputStreamReader(new ByteArrayInputStream(text, 0, length),
                    StandardCharsets.ISO_8859_1));
        } catch (IOException | IllegalArgumentException e) {
            throw new StorageException("Cannot read " + where + " as a properties file: " + e.getMessage(), e);
        }
        return properties;
    }

    private static boolean startsWith(byte[] text, String prefix) {
        byte[] expected = prefix.getBytes(StandardCharsets.ISO_8859_1);
        if (text.length < expected.length) {
            return false;
        }
        for (int i = 0; i < expected.length; i++) {
            if (text[i] != expected[i]) {
                return false;
            }
        }
        return true;
    }

    private static String abbreviate(String line) {
        String printable = line.replaceAll("[^\\x20-\\x7e]", "?");
        return printable.length() > 60 ? printable.substring(0, 57) + "..." : printable;
    }
}
