package io.layoutbench.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.management.HotSpotDiagnosticMXBean;

import java.lang.management.ManagementFactory;

import org.junit.jupiter.api.Test;

class GrownHeapTest {

    static String value() {
        return ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class)
                .getVMOption(GrownHeap.OPTION).getValue();
    }

    @Test
    void theBuildsJvmLetsTheHeapBeKeptGrown() {
        assertThat(GrownHeap.supported()).isTrue();   // HotSpot (Temurin 17 and 25): a manageable option
    }

    @Test
    void aHoldKeepsTheHeapFromShrinkingAndClosingPutsTheOptionBack() {
        String before = value();
        try (GrownHeap held = GrownHeap.hold()) {
            assertThat(value()).isEqualTo("100");
        }
        assertThat(value()).isEqualTo(before);
    }

    @Test
    void theLastOfNestedHoldsPutsTheOptionBackAndAHoldClosesOnce() {
        String before = value();
        GrownHeap outer = GrownHeap.hold();
        GrownHeap inner = GrownHeap.hold();
        inner.close();
        inner.close();   // a second close is no second release
        assertThat(value()).isEqualTo("100");
        outer.close();
        assertThat(value()).isEqualTo(before);
    }
}
