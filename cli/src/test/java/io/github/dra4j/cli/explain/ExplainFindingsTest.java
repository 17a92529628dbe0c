package io.github.dra4j.cli.explain;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.github.dra4j.cli.DraTool;
import io.github.dra4j.testing.apiserver.ApiVerb;
import io.github.dra4j.testing.apiserver.InMemoryApiServer;
import java.io.ByteArrayInputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code dra4j explain} on what a cluster adds to {@link ExplainFixture}: the Events of the pods
 * (the kubelet's prepare failures, the scheduler's), the namespace label admin access needs,
 * slices left out for an older generation, other nodes' devices that match no selector, and nodes
 * with the same answer in one section.
 */
class ExplainFindingsTest {

  private static final String MORE = """
      apiVersion: v1
      kind: Node
      metadata: {name: node-4}
      ---
      apiVersion: v1
      kind: Node
      metadata: {name: node-5}
      ---
      apiVersion: v1
      kind: Namespace
      metadata:
        name: audit
        labels: {resource.kubernetes.io/admin-access: "true"}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceClaimTemplate
      metadata: {name: inspect-template, namespace: audit}
      spec:
        spec:
          devices:
            requests:
            - name: gpu
              exactly: {deviceClassName: gpu.example.com, adminAccess: true}
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: node-1-gpus-stale}
      spec:
        driver: gpu.example.com
        nodeName: node-1
        pool: {name: node-1, generation: 0, resourceSliceCount: 1}
        devices:
        - name: gpu-9
      ---
      apiVersion: resource.k8s.io/v1
      kind: ResourceSlice
      metadata: {name: node-2-nics}
      spec:
        driver: nic.example.com
        nodeName: node-2
        pool: {name: node-2, generation: 1, resourceSliceCount: 1}
        devices:
        - name: nic-0
        - name: nic-1
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: pod1, namespace: gpu-test}
      spec:
        containers: [{name: ctr, image: busybox}]
        resourceClaims:
        - {name: gpu, resourceClaimName: gpu-claim}
      """;

  @TempDir
  static Path dir;

  private static InMemoryApiServer server;
  private static Path kubeconfig;

  @BeforeAll
  static void start() {
    server = InMemoryApiServer.builder().build().start();
    kubeconfig = dir.resolve("kubeconfig");
    server.writeKubeconfig(kubeconfig);
    KubernetesClient client = server.client();
    ExplainFixture.create(client);
    List<HasMetadata> items = client.load(
        new ByteArrayInputStream(MORE.getBytes(StandardCharsets.UTF_8))).items();
    items.forEach(item -> client.resource(item).create());
    // the scheduler reserved holder for pod0; the kubelet failed to prepare it, three times
    Pod pod0 = client.pods().inNamespace("gpu-test").withName("pod0").get();
    ResourceClaim holder = client.resources(ResourceClaim.class).inNamespace("gpu-test")
        .withName("holder").get();
    client.resources(ResourceClaim.class).inNamespace("gpu-test").resource(
        new ResourceClaimBuilder(holder).editStatus().addNewReservedFor().withResource("pods")
            .withName("pod0").withUid(pod0.getMetadata().getUid()).endReservedFor().endStatus()
            .build())
        .updateStatus();
    Instant now = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    String uid = pod0.getMetadata().getUid();
    create(client, event("pod0.1", "pod0", uid, "Warning", "FailedPrepareDynamicResources", 3,
        now.minus(Duration.ofMinutes(5)), "kubelet", "Failed to prepare dynamic resources:"
            + " NodePrepareResources failed for claim gpu-test/holder: device gpu-3: not found"));
    create(client, event("pod0.2", "pod0", uid, "Warning", "FailedScheduling", 1,
        now.minus(Duration.ofMinutes(20)), "default-scheduler", "0/3 nodes are available"));
    create(client, event("pod0.3", "pod0", uid, "Normal", "Scheduled", 1,
        now.minus(Duration.ofMinutes(19)), "default-scheduler", "Successfully assigned"));
    create(client, event("pod0.4", "pod0", "an-earlier-pod0", "Warning",
        "FailedUnprepareDynamicResources", 1, now.minus(Duration.ofHours(3)), "kubelet",
        "an earlier pod of the same name"));
    Pod pod1 = client.pods().inNamespace("gpu-test").withName("pod1").get();
    create(client, event("pod1.1", "pod1", pod1.getMetadata().getUid(), "Warning",
        "FailedScheduling", 7, now.minus(Duration.ofSeconds(30)), "default-scheduler",
        "0/5 nodes are available: 5 cannot allocate all claims."));
    // an operator took the label away after the template was created
    client.namespaces().withName("audit").edit(ns -> {
      ns.getMetadata().getLabels().remove("resource.kubernetes.io/admin-access");
      return ns;
    });
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Event event(String name, String pod, String uid, String type, String reason,
      int count, Instant last, String component, String message) {
    return new EventBuilder().withNewMetadata().withName(name).withNamespace("gpu-test")
        .endMetadata()
        .withNewInvolvedObject().withApiVersion("v1").withKind("Pod").withNamespace("gpu-test")
        .withName(pod).withUid(uid).endInvolvedObject()
        .withType(type).withReason(reason).withCount(count).withMessage(message)
        .withFirstTimestamp(last.minus(Duration.ofMinutes(1)).toString())
        .withLastTimestamp(last.toString())
        .withNewSource().withComponent(component).endSource().build();
  }

  private static void create(KubernetesClient client, Event event) {
    client.v1().events().inNamespace("gpu-test").resource(event).create();
  }

  private static ExplainCommandTest.Run explain(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine line = new CommandLine(new DraTool());
    line.setOut(new PrintWriter(out, true));
    line.setErr(new PrintWriter(err, true));
    List<String> all = new ArrayList<>(List.of("explain"));
    all.addAll(List.of(args));
    all.addAll(List.of("--kubeconfig", kubeconfig.toString()));
    int status = line.execute(all.toArray(String[]::new));
    return new ExplainCommandTest.Run(status, out.toString(), err.toString());
  }

  @Test
  void theKubeletsPrepareFailureForThePodTheClaimIsReservedFor() {
    ExplainCommandTest.Run run = explain("claim", "holder", "-n", "gpu-test");
    assertThat(run.status()).as(run.err()).isZero();
    assertThat(run.out()).contains(
        "Events of pod pod0 (FailedScheduling, FailedPrepareDynamicResources,"
            + " FailedUnprepareDynamicResources; newest first)",
        "  pod pod0: Warning FailedPrepareDynamicResources (x3, 5m ago, from kubelet): Failed to"
            + " prepare dynamic resources: NodePrepareResources failed for claim gpu-test/holder:"
            + " device gpu-3: not found");
    // pod0 is bound: its FailedScheduling is history; the other Events are not about DRA or
    // about an earlier pod0
    assertThat(run.out()).doesNotContain("FailedScheduling (", "Scheduled (", "earlier pod");
  }

  @Test
  void theSchedulersFailureForAPodThatIsNotScheduled() throws Exception {
    ExplainCommandTest.Run run = explain("pod", "pod1", "-n", "gpu-test", "--node", "node-1",
        "-o", "json");
    assertThat(run.status()).as(run.err()).isZero();
    JsonNode events = JsonMapper.builder().build().readTree(run.out()).get("events");
    assertThat(events.get("pods").get(0).asString()).isEqualTo("pod1");
    assertThat(events.get("error").isNull()).isTrue();
    JsonNode item = events.at("/items/0");
    assertThat(List.of(item.get("pod").asString(), item.get("type").asString(),
        item.get("reason").asString(), item.get("count").asString(), item.get("source").asString(),
        item.get("message").asString())).containsExactly("pod1", "Warning", "FailedScheduling",
            "7", "default-scheduler", "0/5 nodes are available: 5 cannot allocate all claims.");
    assertThat(item.get("age").asString()).endsWith("s");
    assertThat(events.get("items")).hasSize(1);
  }

  @Test
  void eventsReadByNamespaceWhenTheServerRefusesTheFieldSelector() {
    server.failNext(ApiVerb.LIST, "events", 400, 1);
    ExplainCommandTest.Run run = explain("claim", "holder", "-n", "gpu-test");
    assertThat(run.out()).contains("  pod pod0: Warning FailedPrepareDynamicResources (x3, 5m");
  }

  @Test
  void eventsNotAvailableIsOneLineNotAFailure() {
    server.failNext(ApiVerb.LIST, "events", 403, 1);
    ExplainCommandTest.Run forbidden = explain("claim", "holder", "-n", "gpu-test");
    assertThat(forbidden.status()).as(forbidden.err()).isZero();
    assertThat(forbidden.out()).contains(
        "  events not available: not allowed to list events in namespace gpu-test");
    server.failNext(ApiVerb.LIST, "events", 404, 1);
    assertThat(explain("claim", "holder", "-n", "gpu-test").out()).contains(
        "  events not available: the API server answered 404 for core/v1 events");
  }

  @Test
  void adminAccessInANamespaceWithoutTheLabel() {
    ExplainCommandTest.Run template = explain("template", "inspect-template", "-n", "audit",
        "--node", "node-1");
    assertThat(template.out()).contains("  !! request gpu asks for admin access, but namespace"
        + " audit lacks the label resource.kubernetes.io/admin-access: \"true\": the API server"
        + " refuses the claim a pod would get from this template (kubectl label namespace audit"
        + " resource.kubernetes.io/admin-access=true)");
    ExplainCommandTest.Run labelled = explain("claim", "inspect", "-n", "admin-ns", "--node",
        "node-1");
    assertThat(labelled.out()).contains("  ok request gpu asks for admin access; namespace"
        + " admin-ns has the label resource.kubernetes.io/admin-access: \"true\"");
    assertThat(explain("claim", "gpu-claim", "-n", "gpu-test", "--node", "node-1").out())
        .doesNotContain("admin access");
  }

  @Test
  void anOlderGenerationAndOtherNodesDevicesThatMatchNoSelector() {
    ExplainCommandTest.Run run = explain("claim", "gpu-claim", "-n", "gpu-test", "--node",
        "node-1");
    assertThat(run.out()).contains(
        "  pool gpu.example.com/node-1 (slice node-1-gpus-stale): generation 0"
            + " superseded by generation 1, not considered",
        "      pool nic.example.com/node-2 (slice node-2-nics): 2 devices for node node-2 do not"
            + " match the request's selectors");
    assertThat(run.out()).doesNotContain("gpu-9");
  }

  @Test
  void nodesWithTheSameAnswerShareASection() {
    ExplainCommandTest.Run run = explain("template", "gpu-template", "-n", "gpu-test");
    assertThat(run.out()).contains("Node node-1: would allocate", "Node node-2: would allocate",
        "Nodes node-3, node-4, node-5 (3): cannot allocate all claims");
    assertThat(run.out()).doesNotContain("Node node-3", "Node node-4");
  }
}
