package io.layoutbench.fusion;
public class DumpTable {
    public static void main(String[] a) throws Exception {
        java.nio.file.Files.write(java.nio.file.Path.of(a[0]), FusionTestFiles.l3Table(Integer.parseInt(a[1]), Long.parseLong(a[2]), Integer.parseInt(a[3])));
    }
}
