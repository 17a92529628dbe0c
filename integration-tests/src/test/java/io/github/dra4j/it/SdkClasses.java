package io.github.dra4j.it;

import java.io.IOException;
import java.net.URISyntaxException;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/** The SDK's modules as compiled classes, for the tests that check the API over all of them. */
final class SdkClasses {

  /** One class of each module, to find its compiled classes. */
  static final List<Class<?>> MODULES = List.of(
      io.github.dra4j.core.name.NameRules.class,
      io.github.dra4j.resourceclaim.ClaimReference.class,
      io.github.dra4j.cdi.spec.CdiSpec.class,
      io.github.dra4j.testing.cdi.registry.CdiRegistry.class,
      io.github.dra4j.webhook.AdmissionReviewHandler.class,
      io.github.dra4j.metrics.PrometheusEndpoint.class,
      io.github.dra4j.picocli.PluginOptions.class,
      io.github.dra4j.cel.DeviceSelectorEnvironment.class,
      io.github.dra4j.structured.StructuredAllocator.class,
      io.github.dra4j.testing.apiserver.InMemoryApiServer.class,
      io.github.dra4j.resourceslice.ResourceSliceController.class,
      io.github.dra4j.kubelet.wire.ServiceNames.class,
      io.github.dra4j.testing.kubelet.FakeKubelet.class,
      io.github.dra4j.kubeletplugin.KubeletPlugin.class,
      io.github.dra4j.lifecycle.ClaimLifecycle.class,
      io.github.dra4j.testing.node.SimulatedNode.class);

  /**
   * The names of the classes in the jar or directory that holds {@code anchor}.
   *
   * @param anchor a class of the module
   * @return binary class names, sorted
   */
  static Set<String> classNames(Class<?> anchor) throws IOException, URISyntaxException {
    Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    Set<String> names = new TreeSet<>();
    if (Files.isDirectory(location)) {
      try (Stream<Path> files = Files.walk(location)) {
        files.filter(f -> f.toString().endsWith(".class")).forEach(f -> names.add(
            location.relativize(f).toString().replace('/', '.').replaceAll("\\.class$", "")));
      }
    } else {
      try (java.util.jar.JarFile jar = new java.util.jar.JarFile(location.toFile())) {
        jar.stream().map(java.util.jar.JarEntry::getName).filter(n -> n.endsWith(".class"))
            .filter(n -> !n.startsWith("META-INF/"))
            .forEach(n -> names.add(n.replace('/', '.').replaceAll("\\.class$", "")));
      }
    }
    return names;
  }

  /** True for a public or protected member or type. */
  static boolean isVisible(int modifiers) {
    return Modifier.isPublic(modifiers) || Modifier.isProtected(modifiers);
  }

  /** True for a type callers outside its package can see: it and every enclosing type visible. */
  static boolean isVisibleType(Class<?> type) {
    for (Class<?> t = type; t != null; t = t.getEnclosingClass()) {
      if (!isVisible(t.getModifiers())) {
        return false;
      }
    }
    return true;
  }

  private SdkClasses() {}
}
