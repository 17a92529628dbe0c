package io.github.dra4j.examples.gpu.demo;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.github.dra4j.examples.gpu.GpuDriver;
import io.github.dra4j.examples.gpu.backend.SimulatedBackend;
import io.github.dra4j.examples.gpu.config.GpuConfigs;
import io.github.dra4j.examples.gpu.devices.DeviceLayout;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The GPU driver's demo: the driver runs on a simulated node (in-memory API server, fake kubelet,
 * the scheduler's allocator, CDI resolved as containerd does) with four simulated GPUs, and each
 * step prints what happened: devices published, a claim allocated and prepared, the environment
 * its container gets, a sharing configuration applied, an invalid one refused by the webhook and
 * by the plugin in the same words, a GPU going unhealthy and recovering. Used once, by one thread.
 * The driver's {@code demo} command finds this class by its name, creates it with the constructor
 * below and calls {@link #run()}: both keep their signatures.
 */
public final class GpuDemo {

  private static final String DRIVER = GpuDriver.DEFAULT_NAME;
  private static final int GPUS = 4;

  private final PrintStream out;
  private int step;

  /**
   * Creates the demo.
   *
   * @param out where to print
   */
  public GpuDemo(PrintStream out) {
    this.out = out;
  }

  /**
   * Runs the demo.
   *
   * @return 0 when every step behaved as it should, 1 otherwise
   */
  public int run() {
    out.println("dra4j GPU driver demo: the reference GPU driver on a simulated node"
        + " (no cluster, no GPU needed)");
    out.println();
    try (SimulatedNode node = SimulatedNode.start()) {
      return story(node);
    } catch (Exception e) {
      out.println();
      out.println("Demo failed: " + e);
      for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
        out.println("  caused by: " + cause);
      }
      return 1;
    }
  }

  private int story(SimulatedNode node) throws Exception {
    Path healthFile = node.pluginDataDirectory(DRIVER).resolveSibling("gpu-health.json");
    try (GpuDriver driver = GpuDriver.create(DRIVER, node.nodeName(),
        new SimulatedBackend(node.nodeName(), GPUS, healthFile), DeviceLayout.WHOLE_GPUS,
        false)) {
      KubeletPlugin plugin = node.startDriver(DRIVER, driver.lifecycle(), null);
      driver.attach(plugin);
      node.awaitDevices(DRIVER, GPUS);
      step("Driver " + DRIVER + " registered with the kubelet of node " + node.nodeName()
          + " and published " + GPUS + " simulated GPUs:");
      for (Device device : devices(node, d -> true)) {
        detail(device.getName() + " uuid " + device.getAttributes().get("uuid").getString()
            + ", memory " + device.getCapacity().get("memory").getValue() + ", type "
            + device.getAttributes().get("type").getString());
      }
      node.createDeviceClass("gpu.example.com", "device.driver == '" + DRIVER + "'",
          "device.attributes['" + DRIVER + "'].type == 'gpu'");
      step("DeviceClass gpu.example.com selects devices of type gpu (as the Helm chart's does)");

      ResourceClaim plain = node.allocate(node.createClaim("default", "one-gpu", "gpu",
          "gpu.example.com", 1));
      if (!prepared(node, plain, "a claim for one GPU, no configuration")) {
        return 1;
      }
      ResourceClaim slow = node.allocate(node.createClaim(claim("time-sliced",
          "{\"sharing\":{\"strategy\":\"TimeSlicing\",\"timeSlicingConfig\":"
              + "{\"interval\":\"Long\"}}}")));
      if (!prepared(node, slow, "a claim whose GpuConfig asks for time slicing, interval Long")) {
        return 1;
      }

      ResourceClaim bad = claim("bad-config",
          "{\"sharing\":{\"strategy\":\"TimeSlicing\",\"mpsConfig\":"
              + "{\"defaultActiveThreadPercentage\":50}}}");
      AdmissionDecision decision = AdmissionReviewHandler.of(DRIVER, GpuConfigs.SCHEME)
          .handle(review(bad));
      step("A claim with an invalid GpuConfig (MPS settings under TimeSlicing):");
      if (decision.allowed()) {
        out.println("The webhook allowed an invalid configuration");
        return 1;
      }
      decision.problems().forEach(p -> detail("the admission webhook refuses it: " + p));
      ResourceClaim stored = node.allocate(node.createClaim(bad));
      PrepareOutcome refused = node.prepare(DRIVER, stored);
      detail("and had it been stored anyway, the plugin fails its prepare: "
          + refused.result(stored.getMetadata().getUid()).error());

      String sick = devices(node, d -> true).get(1).getName();
      Files.writeString(healthFile, "{\"" + sick + "\": {\"key\": \"xid\", \"value\": \"79\","
          + " \"message\": \"GPU has fallen off the bus\"}}", StandardCharsets.UTF_8);
      List<Device> now = await(node, all -> all.stream().anyMatch(GpuDemo::tainted));
      step("The health file marks " + sick + " unhealthy (XID 79): the device is tainted");
      now.stream().filter(GpuDemo::tainted)
          .forEach(d -> detail(d.getName() + " taints " + d.getTaints().stream()
              .map(t -> t.getKey() + "=" + t.getValue() + ":" + t.getEffect())
              .collect(Collectors.toList())));
      Files.delete(healthFile);
      await(node, all -> all.stream().noneMatch(GpuDemo::tainted));
      step("The file is removed: " + sick + " recovers and loses its taint, no restart needed");

      node.unprepare(DRIVER, plain, slow);
      step("The pods are gone: the kubelet unprepared both claims; CDI specs left: "
          + cdiFiles(node));
    }
    out.println();
    out.println("Done. The same driver runs in a cluster with one Helm command: see README.md.");
    return 0;
  }

  private boolean prepared(SimulatedNode node, ResourceClaim claim, String what) {
    PrepareOutcome outcome = node.prepare(DRIVER, claim);
    if (!outcome.isSuccess()) {
      out.println("Prepare failed: " + outcome);
      return false;
    }
    step("Prepared " + what + ": device "
        + outcome.devices(claim.getMetadata().getUid()).get(0).deviceName()
        + "; its container gets:");
    node.containerEdits(outcome, claim).env().stream().filter(e -> e.startsWith("GPU_DEVICE")
        || e.startsWith("DRA_") || e.startsWith("KUBERNETES_NODE_NAME")).sorted()
        .forEach(this::detail);
    return true;
  }

  private static ResourceClaim claim(String name, String configJson) {
    Map<?, ?> parameters = Serialization.unmarshal("{\"apiVersion\":\""
        + GpuConfigs.API_VERSION + "\",\"kind\":\"GpuConfig\"," + configJson.substring(1),
        Map.class);
    return new ResourceClaimBuilder()
        .withNewMetadata().withNamespace("default").withName(name).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu").withNewExactly()
        .withDeviceClassName("gpu.example.com").endExactly().endRequest()
        .addNewConfig().withNewOpaque().withDriver(DRIVER).withParameters(parameters)
        .endOpaque().endConfig().endDevices().endSpec().build();
  }

  private static byte[] review(ResourceClaim claim) {
    String object = Serialization.asJson(claim);
    return ("{\"apiVersion\":\"admission.k8s.io/v1\",\"kind\":\"AdmissionReview\",\"request\":"
        + "{\"uid\":\"demo-1\",\"kind\":{\"group\":\"resource.k8s.io\",\"version\":\"v1\","
        + "\"kind\":\"ResourceClaim\"},\"resource\":{\"group\":\"resource.k8s.io\",\"version\":"
        + "\"v1\",\"resource\":\"resourceclaims\"},\"operation\":\"CREATE\",\"namespace\":"
        + "\"default\",\"object\":" + object + "}}").getBytes(StandardCharsets.UTF_8);
  }

  private static List<Device> devices(SimulatedNode node, Predicate<Device> which) {
    return node.slices().stream().flatMap(s -> s.getSpec().getDevices().stream())
        .filter(which).toList();
  }

  /** Waits until the published devices pass a check (the slices follow health in the background). */
  private static List<Device> await(SimulatedNode node, Predicate<List<Device>> done)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      List<Device> all = devices(node, d -> true);
      if (done.test(all)) {
        return all;
      }
      Thread.sleep(50);
    }
    throw new IllegalStateException("the devices' taints did not change within 30 s");
  }

  private static boolean tainted(Device device) {
    return device.getTaints() != null && !device.getTaints().isEmpty();
  }

  private static String cdiFiles(SimulatedNode node) throws IOException {
    try (var files = Files.list(node.cdiDirectory())) {
      return files.map(p -> p.getFileName().toString()).sorted()
          .collect(Collectors.joining(", "));
    }
  }

  private void step(String text) {
    out.printf("[%d] %s%n", ++step, text);
  }

  private void detail(String text) {
    out.println("      " + text);
  }
}
