package io.github.dra4j.testing.kubelet;

import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/** Base of the tests that need a simulated node: a fresh {@link TestNode} per test, closed after. */
abstract class NodeTest {

  @TempDir
  Path root;
  TestNode node;

  @BeforeEach
  void createNode() {
    node = new TestNode(root);
  }

  @AfterEach
  void closeNode() {
    node.close();
  }
}
