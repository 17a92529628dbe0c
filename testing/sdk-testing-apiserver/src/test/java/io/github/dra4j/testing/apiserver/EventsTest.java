package io.github.dra4j.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * core/v1 Events as kube-apiserver takes them: an Event about a Node lives in {@code default},
 * anywhere else it is refused naming the field; an Event with {@code eventTime} needs its
 * reporting fields; Events are selected by their involved object's fields, as {@code kubectl
 * describe node} and {@code kubectl get events --field-selector} ask.
 */
class EventsTest {

  @TempDir
  Path dir;
  private InMemoryApiServer server;
  private KubernetesClient client;

  @BeforeEach
  void start() {
    server = InMemoryApiServer.builder().build().start();
    client = server.client();
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private static EventBuilder nodeEvent(String namespace) {
    return new EventBuilder().withNewMetadata().withName("node-1.17f0a1b2c3d4")
        .withNamespace(namespace).endMetadata()
        .withNewInvolvedObject().withApiVersion("v1").withKind("Node").withName("node-1")
        .withUid("node-1").endInvolvedObject()
        .withReason("ResourceSlicePublishFailed").withType("Warning")
        .withMessage("pool node-1 not published").withCount(1)
        .withFirstTimestamp("2026-01-01T00:00:00Z").withLastTimestamp("2026-01-01T00:00:00Z")
        .withNewSource().withComponent("gpu.example.com").withHost("node-1").endSource();
  }

  @Test
  void anEventAboutANodeIsStoredInDefaultAndSelectedByItsInvolvedObject() {
    client.v1().events().inNamespace("default").resource(nodeEvent("default").build()).create();

    assertThat(client.v1().events().inAnyNamespace()
        .withField("involvedObject.kind", "Node").withField("involvedObject.name", "node-1")
        .withField("involvedObject.uid", "node-1").withField("involvedObject.namespace", "")
        .list().getItems()).extracting(Event::getReason)
        .containsExactly("ResourceSlicePublishFailed");
    assertThat(client.v1().events().inNamespace("default").withField("reason", "Other").list()
        .getItems()).isEmpty();
    assertThat(client.v1().events().inNamespace("default").withField("source", "gpu.example.com")
        .withField("type", "Warning").list().getItems()).hasSize(1);
  }

  @Test
  void anEventAboutANodeInAnotherNamespaceIsRefused() {
    client.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder()
        .withNewMetadata().withName("drivers").endMetadata().build()).create();

    assertThatThrownBy(() -> client.v1().events().inNamespace("drivers")
        .resource(nodeEvent("drivers").build()).create())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(422))
        .hasMessageContaining("Event \"node-1.17f0a1b2c3d4\" is invalid: involvedObject.namespace:"
            + " Invalid value: \"\": does not match event.namespace");
  }

  @Test
  void anEventWithEventTimeNeedsItsReportingFields() {
    Event event = nodeEvent("default")
        .withEventTime(new io.fabric8.kubernetes.api.model.MicroTime("2026-01-01T00:00:00.000000Z"))
        .withReason(null).build();

    assertThatThrownBy(() -> client.v1().events().inNamespace("default").resource(event).create())
        .isInstanceOf(KubernetesClientException.class)
        .hasMessageContaining("reportingComponent: Required value")
        .hasMessageContaining("reportingInstance: Required value")
        .hasMessageContaining("action: Required value")
        .hasMessageContaining("reason: Required value");
  }

  @Test
  void kubectlDescribeNodeShowsTheNodesEvents() throws IOException {
    Kubectl kubectl = Kubectl.require(dir.resolve("kubeconfig"),
        Files.createDirectories(dir.resolve("home")));
    server.writeKubeconfig(dir.resolve("kubeconfig"));
    client.nodes().resource(new NodeBuilder().withNewMetadata().withName("node-1").endMetadata()
        .build()).create();
    client.v1().events().inNamespace("default").resource(nodeEvent("default").build()).create();

    Kubectl.Result described = kubectl.run("describe", "node", "node-1").assertSuccess();

    assertThat(described.stdout()).containsPattern(
        "Warning\\s+ResourceSlicePublishFailed\\s+.*gpu.example.com\\s+pool node-1 not published");
  }
}
