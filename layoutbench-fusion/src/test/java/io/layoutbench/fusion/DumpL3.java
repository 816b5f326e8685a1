package io.layoutbench.fusion;
import io.layoutbench.api.layout.*;
import io.layoutbench.backend.file.FileBackend;
import io.layoutbench.dataset.synthetic.*;
import java.util.*;
public class DumpL3 {
    public static void main(String[] a) throws Exception {
        Map<String, String> opts = new HashMap<>();
        for (int i = 2; i + 1 < a.length; i += 2) opts.put(a[i], a[i + 1]);
        try (FileBackend b = new FileBackend(java.nio.file.Path.of(a[0]))) {
            try (DatasetWriter w = StorageLayouts.get("l3").create(b, a[1], opts)) {
                SyntheticImageNet.of(ImageNetScale.TINY, 42, false).samples().forEach(w::add);
                w.commit();
            }
        }
    }
}
