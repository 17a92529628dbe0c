package io.github.dra4j.cli.demo;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.cdi.spec.ContainerEdits;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.kubelet.UnprepareOutcome;
import io.github.dra4j.testing.node.AllocationFailedException;
import io.github.dra4j.testing.node.SimulatedNode;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The whole DRA story on a simulated node, printed step by step: a driver registers and publishes
 * its devices, a class and a claim are created, the claim is allocated, prepared (a CDI spec is
 * written and resolved to what a container gets), unprepared, and everything is cleaned up.
 * Needs no cluster, no container runtime and no GPU.
 */
public final class Demo {

  private static final String CLASS = "gpu.example.com";
  private static final int GPUS = 4;

  private final PrintStream out;
  private int step;

  /**
   * Creates the demo.
   *
   * @param out where to print
   */
  public Demo(PrintStream out) {
    this.out = out;
  }

  /**
   * Runs the demo.
   *
   * @return 0 when every step behaved as it should, 1 otherwise
   */
  public int run() {
    out.println("dra4j demo: a DRA driver on a simulated node (no cluster, no GPU needed)");
    out.println();
    try (SimulatedNode node = SimulatedNode.start()) {
      return story(node);
    } catch (RuntimeException | IOException e) {
      out.println();
      out.println("Demo failed: " + e);
      return 1;
    }
  }

  private int story(SimulatedNode node) throws IOException {
    step("Started an in-memory API server (" + node.apiServer().url() + ") and a fake kubelet"
        + " for node " + node.nodeName() + ", watching " + node.registryDirectory());

    SimulatedGpuDriver driver = new SimulatedGpuDriver(node.nodeName(), GPUS);
    KubeletPlugin plugin = node.startDriver(SimulatedGpuDriver.DRIVER_NAME, driver.lifecycle(),
        null);
    var registered = node.kubelet().chosenPlugin(SimulatedGpuDriver.DRIVER_NAME).orElseThrow();
    step("Driver " + SimulatedGpuDriver.DRIVER_NAME + " registered with the kubelet");
    detail("registration socket " + plugin.registrationSocket().getFileName()
        + ", DRA socket " + plugin.draSocket().getFileName());
    detail("advertised " + plugin.supportedServices() + "; the kubelet uses "
        + registered.service().advertised());

    plugin.publishResources(driver.resources());
    List<ResourceSlice> slices = node.awaitDevices(SimulatedGpuDriver.DRIVER_NAME, GPUS);
    step("Published " + GPUS + " simulated GPUs as " + slices.size() + " ResourceSlice(s)");
    for (ResourceSlice slice : slices) {
      detail(slice.getMetadata().getName() + ": pool " + slice.getSpec().getPool().getName()
          + ", generation " + slice.getSpec().getPool().getGeneration() + ", devices "
          + slice.getSpec().getDevices().stream().map(d -> d.getName())
              .collect(Collectors.joining(", ")));
    }

    String selector = "device.driver == \"" + SimulatedGpuDriver.DRIVER_NAME + "\"";
    node.createDeviceClass(CLASS, selector);
    ResourceClaim claim = node.createClaim("default", "training-job", "gpus", CLASS, 2);
    step("Created DeviceClass " + CLASS + " (selector " + selector + ")");
    detail("and ResourceClaim default/training-job asking for 2 devices of that class");

    ResourceClaim allocated = node.allocate(claim);
    step("The structured allocator allocated the claim, as the scheduler would:");
    for (DeviceRequestAllocationResult result : allocated.getStatus().getAllocation().getDevices()
        .getResults()) {
      detail("request " + result.getRequest() + " -> " + result.getDriver() + " / pool "
          + result.getPool() + " / " + result.getDevice());
    }
    try {
      node.allocate(node.createClaim("default", "too-big", "gpus", CLASS, 8));
    } catch (AllocationFailedException e) {
      detail("a second claim asking for 8 devices is refused: " + e.getMessage());
    }

    PrepareOutcome prepared = node.prepare(SimulatedGpuDriver.DRIVER_NAME, allocated);
    if (!prepared.isSuccess()) {
      out.println("Prepare failed: " + prepared.error());
      return 1;
    }
    step("The kubelet prepared the claim; the driver answered with CDI devices:");
    for (PrepareOutcome.Device device : prepared.devices(allocated.getMetadata().getUid())) {
      detail(device.deviceName() + " -> " + String.join(", ", device.cdiDeviceIds()));
    }
    detail("CDI spec written: " + cdiFiles(node));
    detail("checkpoint of prepared claims: " + node.pluginDataDirectory(
        SimulatedGpuDriver.DRIVER_NAME).resolve("checkpoint.json"));
    ContainerEdits edits = node.containerEdits(prepared, allocated);
    step("What a container using the claim gets from the runtime (CDI resolved like containerd):");
    detail("env " + edits.env());
    detail("device nodes " + edits.deviceNodes().stream().map(n -> n.path()).toList());

    UnprepareOutcome unprepared = node.unprepare(SimulatedGpuDriver.DRIVER_NAME, allocated);
    if (!unprepared.isSuccess()) {
      out.println("Unprepare failed: " + unprepared.error());
      return 1;
    }
    step("The pod is gone: the kubelet unprepared the claim; CDI specs left: " + cdiFiles(node));

    long calls = node.kubelet().calls().total();
    plugin.close();
    step("Stopped the driver: its sockets are removed ("
        + (Files.exists(plugin.registrationSocket()) ? "NOT removed" : "removed")
        + "); the kubelet logged " + calls + " calls to it");
    out.println();
    out.println(
        "Done. Run ./mvnw -B verify -Pbenchmarks for the test suite; see README.md to write your own"
            + " driver.");
    return 0;
  }

  private static String cdiFiles(SimulatedNode node) throws IOException {
    try (Stream<java.nio.file.Path> files = Files.list(node.cdiDirectory())) {
      List<String> names = files.map(p -> p.getFileName().toString()).sorted().toList();
      return names.isEmpty() ? "none" : String.join(", ", names);
    }
  }

  private void step(String text) {
    out.printf("[%d] %s%n", ++step, text);
  }

  private void detail(String text) {
    out.println("      " + text);
  }
}
