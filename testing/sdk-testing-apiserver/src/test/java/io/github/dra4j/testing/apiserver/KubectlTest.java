package io.github.dra4j.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The standalone server as the {@code apiserver} command runs it (a port, a kubeconfig written by
 * {@link InMemoryApiServer#writeKubeconfig}), driven by a real kubectl 1.35 without special flags.
 * Skipped, with the reason, where no such kubectl is installed.
 */
class KubectlTest {

  private static final String DRIVER = "gpu.example.com";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);
  private static final JsonMapper JSON = JsonMapper.builder().build();

  @TempDir
  Path dir;

  private InMemoryApiServer server;
  private Kubectl kubectl;

  @BeforeEach
  void start() throws IOException {
    Path home = Files.createDirectories(dir.resolve("home"));
    Kubectl found = Kubectl.require(dir.resolve("kubeconfig"), home);
    server = InMemoryApiServer.builder().port(0).build().start();
    server.writeKubeconfig(dir.resolve("kubeconfig"));
    kubectl = found;
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
  }

  private Path write(String name, String yaml) throws IOException {
    return Files.writeString(dir.resolve(name), yaml);
  }

  private static final String DRA_OBJECTS = """
      apiVersion: resource.k8s.io/v1
      kind: DeviceClass
      metadata:
        name: gpu.example.com
      spec:
        selectors:
        - cel:
            expression: device.driver == "gpu.example.com"
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaim
      metadata:
        name: claim-1
        namespace: default
      spec:
        devices:
          requests:
          - name: gpu
            exactly:
              deviceClassName: gpu.example.com
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata:
        name: node-1-gpu
      spec:
        driver: gpu.example.com
        nodeName: node-1
        pool:
          name: node-1
          generation: 1
          resourceSliceCount: 1
        devices:
        - name: gpu-0
      """;

  @Test
  void createsFromYamlGetsListsAndDeletesWithoutSpecialFlags() throws IOException {
    Path file = write("dra.yaml", DRA_OBJECTS);

    Kubectl.Result created = kubectl.run("create", "-f", file.toString()).assertSuccess();
    assertThat(created.stdout()).contains(
        "deviceclass.resource.k8s.io/gpu.example.com created",
        "resourceclaim.resource.k8s.io/claim-1 created",
        "resourceslice.resource.k8s.io/node-1-gpu created");
    assertThat(server.countRequests(r -> r.path().contains("fieldValidation=Strict")))
        .as("kubectl left validation to the server").isEqualTo(3);

    JsonNode deviceClass = JSON.readTree(
        kubectl.run("get", "deviceclass", DRIVER, "-o", "json").assertSuccess().stdout());
    assertThat(deviceClass.path("kind").asString()).isEqualTo("DeviceClass");
    assertThat(deviceClass.at("/spec/selectors/0/cel/expression").asString())
        .isEqualTo("device.driver == \"gpu.example.com\"");
    assertThat(deviceClass.at("/metadata/uid").asString()).isNotEmpty();

    String sliceYaml = kubectl.run("get", "resourceslice", "node-1-gpu", "-o", "yaml")
        .assertSuccess().stdout();
    assertThat(sliceYaml).contains("kind: ResourceSlice", "nodeName: node-1", "- name: gpu-0");

    String claims = kubectl.run("get", "resourceclaims").assertSuccess().stdout();
    assertThat(claims.lines().toList()).hasSize(2);
    assertThat(claims).startsWith("NAME").contains("claim-1");
    JsonNode slices = JSON.readTree(
        kubectl.run("get", "resourceslices", "-o", "json").assertSuccess().stdout());
    assertThat(slices.path("items").size()).isEqualTo(1);

    assertThat(kubectl.run("delete", "resourceclaim", "claim-1").assertSuccess().stdout())
        .contains("resourceclaim.resource.k8s.io \"claim-1\" deleted");
    Kubectl.Result gone = kubectl.run("get", "resourceclaim", "claim-1");
    assertThat(gone.exitCode()).isEqualTo(1);
    assertThat(gone.stderr())
        .contains("Error from server (NotFound)",
            "resourceclaims.resource.k8s.io \"claim-1\" not found");
    assertThat(claims().inNamespace("default").list().getItems()).isEmpty();
  }

  @Test
  void unknownFieldsFailStrictValidationAndWarnOnRequest() throws IOException {
    Path file = write("typo.yaml", """
        apiVersion: resource.k8s.io/v1
        kind: DeviceClass
        metadata:
          name: typo
        spec:
          selectorz: []
        """);
    String refusal = "Error from server (BadRequest): error when creating \"" + file + "\":"
        + " DeviceClass in version \"v1\" cannot be handled as a DeviceClass: strict decoding"
        + " error: unknown field \"spec.selectorz\"\n";

    for (List<String> validate : List.of(List.<String> of(), List.of("--validate=strict"))) {
      List<String> args = new ArrayList<>(List.of("create", "-f", file.toString()));
      args.addAll(validate);
      Kubectl.Result strict = kubectl.run(args.toArray(String[]::new));
      assertThat(strict.exitCode()).as("%s", validate).isEqualTo(1);
      assertThat(strict.stderr()).as("kubectl's default is strict").isEqualTo(refusal);
    }
    assertThat(server.client().resource(deviceClassNamed("typo")).get()).isNull();
    assertThat(server.countRequests(r -> r.path().contains("fieldValidation=Strict")
        && r.status() == 400)).isEqualTo(2);

    Kubectl.Result warned = kubectl.run("create", "--validate=warn", "-f", file.toString())
        .assertSuccess();
    assertThat(warned.stderr()).isEqualTo("Warning: unknown field \"spec.selectorz\"\n");
    assertThat(warned.stdout()).isEqualTo("deviceclass.resource.k8s.io/typo created\n");
    JsonNode stored = JSON.readTree(
        kubectl.run("get", "deviceclass", "typo", "-o", "json").assertSuccess().stdout());
    assertThat(stored.path("spec").has("selectorz")).as("unknown fields are not stored").isFalse();
  }

  private static final String SLICE = """
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata:
        name: %s
      spec:
        driver: "%s"
        nodeName: node-1
        pool:
          name: node-1
          generation: 1
          resourceSliceCount: 1
        devices:
        - name: %s
      """;

  private static final String BAD_NAME = "spec.devices[0].name: Invalid value: \"GPU-0\": a"
      + " lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-',"
      + " and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc',"
      + " regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

  /**
   * kubectl prints a 422 {@code Invalid} from the status details, not from its message: {@code
   * The <kind> "<name>" is invalid: } and the one cause on the same line, or a line break and
   * one {@code * <field>: <message>} line per cause.
   */
  @Test
  void anInvalidObjectIsPrintedAsKubectlPrintsARealServersInvalid() throws IOException {
    Path one = write("one.yaml", SLICE.formatted("one", DRIVER, "GPU-0"));
    Kubectl.Result single = kubectl.run("create", "-f", one.toString());
    assertThat(single.exitCode()).isEqualTo(1);
    assertThat(single.stdout()).isEmpty();
    assertThat(single.stderr())
        .isEqualTo("The ResourceSlice \"one\" is invalid: " + BAD_NAME + "\n");

    Path several = write("several.yaml", SLICE.formatted("several", "", "GPU-0"));
    Kubectl.Result multiple = kubectl.run("create", "-f", several.toString());
    assertThat(multiple.exitCode()).isEqualTo(1);
    assertThat(multiple.stderr()).isEqualTo("The ResourceSlice \"several\" is invalid: \n"
        + "* spec.driver: Required value\n"
        + "* " + BAD_NAME + "\n");

    Path typo = write("typo.yaml", SLICE.formatted("typo", DRIVER, "GPU-0")
        .replace("- name: GPU-0", "- name: GPU-0\n    naem: gpu-0"));
    Kubectl.Result warned = kubectl.run("create", "--validate=warn", "-f", typo.toString());
    assertThat(warned.exitCode()).isEqualTo(1);
    assertThat(warned.stderr()).isEqualTo("Warning: unknown field \"spec.devices[0].naem\"\n"
        + "The ResourceSlice \"typo\" is invalid: " + BAD_NAME + "\n");
    assertThat(server.client().dynamicResourceAllocation().v1().resourcesSlices().list()
        .getItems()).isEmpty();
  }

  @Test
  void serverSideDryRunOfApplyChecksWithoutStoring() throws IOException {
    Path valid = write("valid.yaml", SLICE.formatted("valid", DRIVER, "gpu-0"));
    Kubectl.Result checked = kubectl.run("apply", "--dry-run=server", "-f", valid.toString())
        .assertSuccess();
    assertThat(checked.stdout())
        .isEqualTo("resourceslice.resource.k8s.io/valid created (server dry run)\n");

    Path invalid = write("invalid.yaml", SLICE.formatted("invalid", DRIVER, "GPU-0"));
    Kubectl.Result refused = kubectl.run("apply", "--dry-run=server", "-f", invalid.toString());
    assertThat(refused.exitCode()).isEqualTo(1);
    assertThat(refused.stderr())
        .isEqualTo("The ResourceSlice \"invalid\" is invalid: " + BAD_NAME + "\n");

    assertThat(server.client().dynamicResourceAllocation().v1().resourcesSlices().list()
        .getItems()).isEmpty();
    assertThat(server.countRequests(r -> r.verb() == ApiVerb.CREATE
        && r.path().contains("dryRun=All"))).isEqualTo(2);
  }

  private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> claims() {
    return server.client().genericKubernetesResources(
        new ResourceDefinitionContext.Builder().withGroup("resource.k8s.io")
            .withVersion("v1").withPlural("resourceclaims").withKind("ResourceClaim")
            .withNamespaced(true).build());
  }

  private static GenericKubernetesResource deviceClassNamed(String name) {
    GenericKubernetesResource resource = new GenericKubernetesResource();
    resource.setApiVersion("resource.k8s.io/v1");
    resource.setKind("DeviceClass");
    resource.setMetadata(new ObjectMetaBuilder().withName(name).build());
    return resource;
  }

  @Test
  void patchesTheStatusOfAClaim() throws IOException {
    kubectl.run("create", "-f", write("dra.yaml", DRA_OBJECTS).toString()).assertSuccess();

    kubectl.run("patch", "resourceclaim", "claim-1", "--subresource=status", "-p",
        "{\"status\":{\"allocation\":{\"devices\":{\"results\":[{\"request\":\"gpu\","
            + "\"driver\":\"gpu.example.com\",\"pool\":\"node-1\",\"device\":\"gpu-0\"}]}}}}")
        .assertSuccess();

    GenericKubernetesResource claim = claims().inNamespace("default").withName("claim-1").get();
    @SuppressWarnings("unchecked")
    Map<String, Object> allocation = (Map<String, Object>) ((Map<String, Object>) claim
        .getAdditionalProperties().get("status"))
        .get("allocation");
    assertThat(allocation.toString()).contains("device=gpu-0", "pool=node-1");
    assertThat(kubectl.run("get", "resourceclaim", "claim-1", "-o",
        "jsonpath={.status.allocation.devices.results[0].device}").assertSuccess().stdout())
        .isEqualTo("gpu-0");
    assertThat(server.countRequests(r -> r.verb() == ApiVerb.PATCH && r.status() == 200))
        .as("%s", server.requests()).isEqualTo(1);
  }

  @Test
  void appliesTwiceReplacingAnAtomicList() throws IOException {
    Path file = write("dra.yaml", DRA_OBJECTS);
    assertThat(kubectl.run("apply", "-f", file.toString()).assertSuccess().stdout())
        .contains("resourceslice.resource.k8s.io/node-1-gpu created");

    write("dra.yaml", DRA_OBJECTS.replace("- name: gpu-0", "- name: gpu-1"));
    Kubectl.Result again = kubectl.run("apply", "-f", file.toString()).assertSuccess();
    assertThat(again.stdout()).contains("deviceclass.resource.k8s.io/gpu.example.com unchanged",
        "resourceslice.resource.k8s.io/node-1-gpu configured");
    assertThat(kubectl.run("get", "resourceslice", "node-1-gpu", "-o",
        "jsonpath={.spec.devices[*].name}").assertSuccess().stdout()).isEqualTo("gpu-1");
  }

  @Test
  void watchPrintsEventsAsObjectsChange() throws Exception {
    kubectl.run("create", "-f", write("class.yaml", DRA_OBJECTS.split("---", -1)[0]).toString())
        .assertSuccess();
    Process watch = kubectl.start("get", "deviceclasses", "-w", "--output-watch-events");
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader in = new BufferedReader(
          new InputStreamReader(watch.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = in.readLine(); line != null; line = in.readLine()) {
          lines.add(line);
        }
      } catch (IOException e) {
        lines.add("reader failed: " + e);
      }
    }, "kubectl-watch-reader");
    reader.setDaemon(true);
    reader.start();
    try {
      assertThat(nextLine(lines, "EVENT")).contains("NAME");
      assertThat(nextLine(lines, DRIVER)).startsWith("ADDED");
      await().atMost(TIMEOUT).until(() -> server.openWatches() == 1);

      server.client().resource(deviceClassNamed("second.example.com")).create();
      assertThat(nextLine(lines, "second.example.com")).startsWith("ADDED");
      server.client().resource(deviceClassNamed("second.example.com")).delete();
      assertThat(nextLine(lines, "second.example.com")).startsWith("DELETED");
      assertThat(server.countRequests(r -> r.verb() == ApiVerb.WATCH && r.status() == 200))
          .as("a plain HTTP watch, not a WebSocket").isEqualTo(1);
    } finally {
      watch.destroy();
      assertThat(watch.waitFor(10, TimeUnit.SECONDS)).isTrue();
    }
    await().atMost(TIMEOUT).until(() -> server.openWatches() == 0);
  }

  private static String nextLine(BlockingQueue<String> lines, String containing)
      throws InterruptedException {
    long deadline = System.nanoTime() + TIMEOUT.toNanos();
    List<String> seen = new ArrayList<>();
    while (System.nanoTime() < deadline) {
      String line = lines.poll(100, TimeUnit.MILLISECONDS);
      if (line != null) {
        seen.add(line);
        if (line.contains(containing)) {
          return line;
        }
      }
    }
    throw new AssertionError("no line with \"" + containing + "\" in " + seen);
  }
}
