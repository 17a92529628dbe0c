package io.github.dra4j.examples.gpu.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.github.dra4j.examples.gpu.devices.DeviceNames;
import io.github.dra4j.testing.node.RunningPod;
import io.github.dra4j.testing.node.SimulatedNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A folder of demo manifests applied to a simulated node as {@code kubectl apply} would, and the
 * record of which of them a test class applied, so that a manifest without a test is noticed.
 * Owned by one test class (its tests run one at a time), usually in a static field.
 */
public final class DemoManifests {

  private final Path directory;
  private final Set<String> applied = new LinkedHashSet<>();

  /**
   * Manifests of a folder.
   *
   * @param directory the folder, such as {@code demo}
   */
  public DemoManifests(Path directory) {
    this.directory = directory;
  }

  /**
   * Reads the objects of a manifest.
   *
   * @param node the node whose client parses them
   * @param file the file's name in the folder
   * @return the objects, in file order
   * @throws IOException if the file cannot be read
   */
  public List<HasMetadata> load(SimulatedNode node, String file) throws IOException {
    try (InputStream in = Files.newInputStream(directory.resolve(file))) {
      return node.client().load(in).items();
    }
  }

  /**
   * Stores every object of a manifest but its pods, then starts the pods, and records the file
   * as tested.
   *
   * @param node the node
   * @param file the file's name in the folder
   * @return the pods, started
   * @throws IOException if the file cannot be read
   */
  public List<RunningPod> apply(SimulatedNode node, String file) throws IOException {
    applied.add(file);
    List<RunningPod> pods = new ArrayList<>();
    for (HasMetadata object : load(node, file)) {
      if (object instanceof Pod pod) {
        pods.add(node.pods().start(pod));
      } else {
        node.client().resource(object).create();
      }
    }
    return pods;
  }

  /**
   * Asserts that every file of the folder (not its subfolders) was applied.
   *
   * @param what what the files are, for the message
   * @throws IOException if the folder cannot be listed
   */
  public void assertEveryFileApplied(String what) throws IOException {
    try (Stream<Path> files = Files.list(directory)) {
      assertThat(files.filter(Files::isRegularFile).map(f -> f.getFileName().toString()))
          .as("%s with a test", what).containsExactlyInAnyOrderElementsOf(Set.copyOf(applied));
    }
  }

  /**
   * The devices a container sees: the values of its {@code GPU_DEVICE_<n>=<device name>}
   * variables, sorted.
   *
   * @param env the container's environment
   * @return the device names
   */
  public static List<String> devicesOf(Map<String, String> env) {
    return env.entrySet().stream()
        .filter(e -> e.getKey().equals(prefix(e.getValue())))
        .map(Map.Entry::getValue).sorted().toList();
  }

  /**
   * The prefix of a device's variables, {@code GPU_DEVICE_<n>}.
   *
   * @param device the device's name
   * @return the prefix
   */
  public static String prefix(String device) {
    return "GPU_DEVICE_" + DeviceNames.envSuffix(device);
  }
}
