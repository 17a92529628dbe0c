package ${package}.demo;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import ${package}.Claims;
import ${package}.DeviceDriver;
import ${package}.DriverSetup;
import ${package}.config.DriverConfigs;
import ${package}.devices.SimulatedDevices;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.testing.kubelet.PrepareOutcome;
import io.github.dra4j.testing.node.SimulatedNode;
import io.github.dra4j.testing.webhook.AdmissionReviews;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The driver's whole story on a simulated node (in-memory API server, the kubelet over real
 * sockets, the scheduler's allocator, CDI resolved as containerd does), printed step by step: no
 * cluster, no hardware. Used once, by one thread.
 */
public final class Demo {

  private static final String DRIVER = DeviceDriver.DEFAULT_NAME;
  private static final String LARGE = "large." + DRIVER;
  private static final int DEVICES = 4;

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
   * Runs the demo and exits with its status.
   *
   * @param args none
   */
  public static void main(String[] args) {
    if (System.getProperty("dra4j.logging.defaultLevel") == null) {
      // the story only, unless LOG_LEVEL asks for more (dra4j-logging reads both)
      System.setProperty("dra4j.logging.defaultLevel", "error");
    }
    System.exit(new Demo(System.out).run());
  }

  /**
   * Runs the demo.
   *
   * @return 0 when every step behaved as it should, 1 otherwise
   */
  public int run() {
    out.println(DRIVER + " demo: the driver on a simulated node (no cluster, no hardware)");
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
    SimulatedDevices devices = new SimulatedDevices(node.nodeName(), DEVICES);
    DeviceDriver driver = DeviceDriver.create(DRIVER, node.nodeName(), devices);
    KubeletPlugin plugin = node.startDriver(DRIVER, driver.lifecycle(), null);
    plugin.publishResources(driver.resources());
    List<Device> published = node.awaitDevices(DRIVER, DEVICES).stream()
        .flatMap(slice -> slice.getSpec().getDevices().stream()).toList();
    step("The kubelet plugin registered on node " + node.nodeName() + " and published "
        + published.size() + " simulated devices:");
    for (Device device : published) {
      detail(device.getName() + ": model " + device.getAttributes().get("model").getString()
          + ", memory " + device.getCapacity().get("memory").getValue() + ", uuid "
          + device.getAttributes().get("uuid").getString());
    }

    node.createDeviceClass(DRIVER, "device.driver == '" + DRIVER + "'");
    node.createDeviceClass(LARGE, "device.driver == '" + DRIVER + "'",
        "device.capacity['" + DRIVER + "'].memory.compareTo(quantity('32Gi')) >= 0");
    step("DeviceClass " + DRIVER + " selects every device (the Helm chart installs it); "
        + LARGE + " those with 32Gi or more");

    ResourceClaim large = node.allocate(node.createClaim("default", "large", "dev", LARGE, 1));
    if (!prepared(node, large, "a claim for one device of class " + LARGE)) {
      return 1;
    }
    ResourceClaim tuned = node.allocate(node.createClaim(Claims.withConfig("tuned", DRIVER,
        DRIVER, "{\"profile\": \"Performance\", \"powerLimitWatts\": 300}")));
    if (!prepared(node, tuned, "a claim whose DriverConfig asks for Performance at 300 W")) {
      return 1;
    }
    detail("the backend applied: " + devices.applied());

    ResourceClaim bad = Claims.withConfig("too-much-power", DRIVER, DRIVER,
        "{\"profile\": \"PowerSaving\", \"powerLimitWatts\": 300}");
    AdmissionDecision decision = AdmissionReviewHandler.of(DRIVER, DriverConfigs.SCHEME)
        .handle(AdmissionReviews.create(bad));
    step("A claim asks for PowerSaving at 300 W:");
    if (decision.allowed()) {
      out.println("The webhook allowed an invalid configuration");
      return 1;
    }
    decision.problems().forEach(problem -> detail("the admission webhook refuses it: "
        + problem));
    ResourceClaim stored = node.allocate(node.createClaim(bad));
    PrepareOutcome refused = node.prepare(DRIVER, stored);
    detail("had it been stored anyway, the plugin would fail its prepare: "
        + refused.result(Claims.uid(stored)).error());

    node.unprepare(DRIVER, large, tuned);
    step("The pods are gone and the kubelet unprepared both claims: CDI specs left: "
        + cdiSpecs(node) + "; settings left on the devices: " + devices.applied());
    out.println();
    out.println("Done. The same driver runs in a cluster from its Helm chart: see README.md.");
    return 0;
  }

  private boolean prepared(SimulatedNode node, ResourceClaim claim, String what) {
    PrepareOutcome outcome = node.prepare(DRIVER, claim);
    if (!outcome.isSuccess()) {
      out.println("Prepare failed: " + outcome);
      return false;
    }
    step("Prepared " + what + ": " + Claims.allocatedDevices(claim)
        + "; its container gets:");
    node.containerEdits(outcome, claim).env().stream()
        .filter(variable -> variable.startsWith("DRA_")).sorted().forEach(this::detail);
    return true;
  }

  private static String cdiSpecs(SimulatedNode node) throws IOException {
    try (Stream<Path> files = Files.list(node.cdiDirectory())) {
      String names = files.map(file -> file.getFileName().toString()).sorted()
          .collect(Collectors.joining(", "));
      return names.isEmpty() ? "none" : names;
    }
  }

  private void step(String text) {
    out.printf("[%d] %s%n", ++step, text);
  }

  private void detail(String text) {
    out.println("    " + text);
  }
}
