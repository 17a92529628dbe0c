package io.github.dra4j.testing.kubelet;

import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;

/**
 * Base of the tests of the fake kubelet with the SDK's own kubelet plugin as its peer: a fresh
 * {@link TestNode} per test (from dra4j-testing-kubelet's tests) and helpers to start plugins of a
 * {@link TestDriver} in its directories. The fake kubelet's tests with hand-made plugins are in
 * dra4j-testing-kubelet; these need dra4j-kubeletplugin, which itself is tested with the fake
 * kubelet.
 */
abstract class SdkPluginNodeTest extends NodeTest {

  /** A plugin builder for the test driver in this node's directories. */
  KubeletPluginBuilder plugin(TestDriver driver) {
    return KubeletPlugin.builder(driver)
        .driverName(TestNode.DRIVER)
        .kubeClient(node.client())
        .nodeName(TestNode.NODE)
        .registrarDirectory(node.registry)
        .pluginDataDirectory(node.data)
        .shutdown(s -> s.withCloseOnShutdown(false));
  }

  /** Starts a plugin that the node closes after the test. */
  KubeletPlugin startPlugin(KubeletPluginBuilder builder) {
    return node.own(builder.start());
  }
}
