package io.layoutbench.fusion.pushdown;

import io.layoutbench.api.backend.ObjectBackend;
import io.layoutbench.api.testing.FaultInjectingBackend;
import io.layoutbench.backend.memory.MemoryBackend;
import io.layoutbench.fusion.store.FacBackend;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@link PushdownEngineContract} with every node in this process ({@link LocalNodeOperators}): nine memory
 * backends, a node down being one whose reads fail.
 */
class PushdownEngineTest extends PushdownEngineContract {

    private final List<FaultInjectingBackend> nodes = new ArrayList<>();

    @Override
    protected List<? extends ObjectBackend> startNodes(Path dir) {
        for (int i = 0; i < 9; i++) {
            nodes.add(FaultInjectingBackend.wrap(new MemoryBackend()));
        }
        return nodes;
    }

    @Override
    protected NodeOperators operators(FacBackend store) {
        return LocalNodeOperators.of(store);
    }

    @Override
    protected void down(int node) {
        nodes.get(node).down();
    }

    @Override
    protected void up(int node) {
        nodes.get(node).up();
    }

    @Override
    protected void stopNodes() {
        nodes.forEach(ObjectBackend::close);
    }
}
