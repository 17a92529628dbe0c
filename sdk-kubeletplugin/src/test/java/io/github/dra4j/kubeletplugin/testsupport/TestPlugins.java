package io.github.dra4j.kubeletplugin.testsupport;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.kubeletplugin.DraDriver;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Builders for plugins that live in a test's temporary directories. */
public final class TestPlugins {

  /** The driver name tests use. */
  public static final String DRIVER = "gpu.example.com";

  private TestPlugins() {}

  /**
   * A builder with the registry in {@code <root>/registry} and the data directory in {@code
   * <root>/plugins/<driver>} (both created), and no shutdown hook.
   *
   * @param driver the driver
   * @param client the API client
   * @param root a temporary directory
   * @return the builder
   */
  public static KubeletPluginBuilder builder(DraDriver driver, KubernetesClient client, Path root) {
    try {
      Path registry = Files.createDirectories(root.resolve("registry"));
      Path data = Files.createDirectories(root.resolve("plugins").resolve(DRIVER));
      return KubeletPlugin.builder(driver)
          .driverName(DRIVER)
          .kubeClient(client)
          .nodeName("node-1")
          .registrarDirectory(registry)
          .pluginDataDirectory(data)
          .shutdown(s -> s.withCloseOnShutdown(false));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
