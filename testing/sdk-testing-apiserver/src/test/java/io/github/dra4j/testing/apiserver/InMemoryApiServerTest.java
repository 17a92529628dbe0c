package io.github.dra4j.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class InMemoryApiServerTest {

  private static final String DRIVER = "gpu.example.com";
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

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

  private NonNamespaceOperation<ResourceSlice, io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceList, Resource<ResourceSlice>> slices() {
    return client.dynamicResourceAllocation().v1().resourcesSlices();
  }

  private static ResourceSlice slice(String name, String driver, String nodeName,
      Device... devices) {
    return new ResourceSliceBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec()
        .withDriver(driver)
        .withNodeName(nodeName)
        .withAllNodes(nodeName == null ? Boolean.TRUE : null)
        .withNewPool().withName("pool").withGeneration(1L).withResourceSliceCount(1L).endPool()
        .withDevices(devices)
        .endSpec()
        .build();
  }

  private static List<String> names(
      List<? extends io.fabric8.kubernetes.api.model.HasMetadata> items) {
    return items.stream().map(i -> i.getMetadata().getName()).sorted().toList();
  }

  @Test
  void listFiltersSlicesByDriverAndNodeName() {
    slices().resource(slice("a", DRIVER, "n1")).create();
    slices().resource(slice("b", DRIVER, "n2")).create();
    slices().resource(slice("c", "other.example.com", "n1")).create();
    slices().resource(slice("d", DRIVER, null)).create();

    assertThat(names(slices().withField("spec.driver", DRIVER).withField("spec.nodeName", "n1")
        .list().getItems())).containsExactly("a");
    assertThat(names(slices().withField("spec.driver", DRIVER).list().getItems()))
        .containsExactly("a", "b", "d");
    assertThat(names(slices().withField("spec.nodeName", "").list().getItems()))
        .containsExactly("d");
    assertThat(names(slices().withField("metadata.name", "c").list().getItems()))
        .containsExactly("c");
    assertThat(names(slices().withoutField("spec.nodeName", "n1").list().getItems()))
        .containsExactly("b", "d");
  }

  @Test
  void unsupportedFieldSelectorIsABadRequest() {
    slices().resource(slice("a", DRIVER, "n1")).create();
    assertThatThrownBy(() -> slices().withField("spec.pool.name", "pool").list())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(400))
        .hasMessageContaining("field label not supported: spec.pool.name");
  }

  @Test
  void podsAreSelectableByNodeNameAndNamespace() {
    client.pods().inNamespace("ns1").resource(pod("p1", "n1")).create();
    client.pods().inNamespace("ns2").resource(pod("p2", "n1")).create();
    client.pods().inNamespace("ns1").resource(pod("p3", "n2")).create();

    assertThat(names(client.pods().inAnyNamespace().withField("spec.nodeName", "n1").list()
        .getItems())).containsExactly("p1", "p2");
    assertThat(names(client.pods().inNamespace("ns1").withField("spec.nodeName", "n1").list()
        .getItems())).containsExactly("p1");
    assertThat(names(client.pods().inAnyNamespace().withField("metadata.namespace", "ns2").list()
        .getItems())).containsExactly("p2");
  }

  private static Pod pod(String name, String nodeName) {
    return new PodBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withNodeName(nodeName).addNewContainer().withName("c").withImage("i")
        .endContainer().endSpec().build();
  }

  @Test
  void deleteCollectionRemovesOnlySelectedSlicesLikeTheKubeletWipe() {
    slices().resource(slice("a", DRIVER, "n1")).create();
    slices().resource(slice("b", DRIVER, "n2")).create();
    slices().resource(slice("c", "other.example.com", "n1")).create();
    slices().resource(slice("d", DRIVER, null)).create();

    slices().withField("spec.nodeName", "n1").withField("spec.driver", DRIVER).delete();

    assertThat(names(slices().list().getItems())).containsExactly("b", "c", "d");
    assertThat(server.countRequests(r -> r.is(ApiVerb.DELETE_COLLECTION, "resourceslices")))
        .isEqualTo(1);
  }

  @Test
  void watchDeliversOnlySelectedObjectsAndSelectionChanges() {
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    Watch watch = client.pods().inNamespace("ns").withField("spec.nodeName", "n1")
        .watch(recorder(events));
    try {
      client.pods().inNamespace("ns").resource(pod("on-n1", "n1")).create();
      client.pods().inNamespace("ns").resource(pod("on-n2", "n2")).create();
      // Moving a pod away from the selected node is a deletion for this watch.
      client.pods().inNamespace("ns").withName("on-n1")
          .edit(p -> new PodBuilder(p).editSpec().withNodeName("n3").endSpec().build());
      client.pods().inNamespace("ns").withName("on-n2")
          .edit(p -> new PodBuilder(p).editSpec().withNodeName("n1").endSpec().build());
      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(events)
          .containsExactly("ADDED on-n1", "DELETED on-n1", "ADDED on-n2"));
      assertThat(server.countRequests(r -> r.is(ApiVerb.WATCH, "pods") && r.status() == 101))
          .as("fabric8 watches over a WebSocket").isEqualTo(1);
    } finally {
      watch.close();
    }
  }

  @Test
  void labelSelectorsAndNamedWatchesSelectObjects() {
    client.pods().inNamespace("ns").resource(new PodBuilder(pod("gpu-pod", "n1")).editMetadata()
        .addToLabels("app", "gpu").endMetadata().build()).create();
    client.pods().inNamespace("ns").resource(pod("plain-pod", "n1")).create();
    assertThat(names(client.pods().inNamespace("ns").withLabel("app", "gpu").list().getItems()))
        .containsExactly("gpu-pod");
    assertThat(names(client.pods().inNamespace("ns").withoutLabel("app").list().getItems()))
        .containsExactly("plain-pod");

    List<String> events = Collections.synchronizedList(new ArrayList<>());
    Watch watch = client.pods().inNamespace("ns").withName("plain-pod").watch(recorder(events));
    try {
      client.pods().inNamespace("ns").withName("gpu-pod").delete();
      client.pods().inNamespace("ns").withName("plain-pod").delete();
      await().atMost(TIMEOUT).untilAsserted(
          () -> assertThat(events).containsExactly("ADDED plain-pod", "DELETED plain-pod"));
    } finally {
      watch.close();
    }
  }

  @Test
  void watchResumesFromResourceVersionWithoutReplayingOldObjects() {
    slices().resource(slice("old", DRIVER, "n1")).create();
    String resourceVersion = slices().list().getMetadata().getResourceVersion();
    slices().resource(slice("new", DRIVER, "n1")).create();
    slices().withName("old").delete();

    List<String> events = Collections.synchronizedList(new ArrayList<>());
    Watch watch = slices().withResourceVersion(resourceVersion).watch(recorder(events));
    try {
      await().atMost(TIMEOUT)
          .untilAsserted(() -> assertThat(events).containsExactly("ADDED new", "DELETED old"));
    } finally {
      watch.close();
    }
  }

  @Test
  void watchFromBeyondTheHistoryIsExpired() {
    server.close();
    server = InMemoryApiServer.builder().historyLimit(2).build().start();
    client = server.client();
    slices().resource(slice("a", DRIVER, "n1")).create();
    String resourceVersion = slices().list().getMetadata().getResourceVersion();
    for (String name : List.of("b", "c", "d")) {
      slices().resource(slice(name, DRIVER, "n1")).create();
    }
    List<String> events = Collections.synchronizedList(new ArrayList<>());
    Watch watch = slices().withResourceVersion(resourceVersion).watch(recorder(events));
    try {
      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(events)
          .containsExactly("closed gone=true too old resource version: 1 (3)"));
    } finally {
      watch.close();
    }
  }

  @Test
  void informerSurvivesServerSideWatchClose() {
    List<String> added = Collections.synchronizedList(new ArrayList<>());
    SharedIndexInformer<ResourceSlice> informer = slices().withField("spec.driver", DRIVER)
        .inform(new ResourceEventHandler<>() {
          @Override
          public void onAdd(ResourceSlice obj) {
            added.add(obj.getMetadata().getName());
          }
          @Override
          public void onUpdate(ResourceSlice oldObj, ResourceSlice newObj) {}
          @Override
          public void onDelete(ResourceSlice obj, boolean unknown) {
            added.remove(obj.getMetadata().getName());
          }
        }, 0);
    try {
      slices().resource(slice("a", DRIVER, "n1")).create();
      await().atMost(TIMEOUT).until(() -> added.contains("a"));
      await().atMost(TIMEOUT).until(() -> server.openWatches() == 1);
      assertThat(server.closeWatches()).isEqualTo(1);
      slices().withName("a").delete();
      slices().resource(slice("b", DRIVER, "n1")).create();
      await().atMost(TIMEOUT).untilAsserted(() -> assertThat(added).containsExactly("b"));
    } finally {
      informer.close();
    }
  }

  @Test
  void anUpdateBasedOnAnOldCopyIsRefusedWith409() {
    ResourceSlice created = slices().resource(slice("a", DRIVER, "n1")).create();
    ResourceSlice newer = slices().resource(new ResourceSliceBuilder(created).editSpec()
        .withNewPool().withName("pool").withGeneration(2L).withResourceSliceCount(1L).endPool()
        .endSpec().build()).update();

    assertThatThrownBy(() -> slices().resource(new ResourceSliceBuilder(created).editSpec()
        .withNewPool().withName("pool").withGeneration(3L).withResourceSliceCount(1L).endPool()
        .endSpec().build()).update())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(409))
        .hasMessageContaining("the object has been modified; please apply your changes to the"
            + " latest version and try again");
    assertThat(slices().withName("a").get().getSpec().getPool().getGeneration()).isEqualTo(2L);
    // Without a resourceVersion the update is unconditional, as on the real server.
    ResourceSlice unconditional = new ResourceSliceBuilder(newer).editMetadata()
        .withResourceVersion(null).endMetadata().editSpec().editPool().withGeneration(4L)
        .endPool().endSpec().build();
    slices().resource(unconditional).update();
    assertThat(slices().withName("a").get().getSpec().getPool().getGeneration()).isEqualTo(4L);
  }

  @Test
  void deletePreconditionsAreChecked() {
    ResourceSlice created = slices().resource(slice("a", DRIVER, "n1")).create();
    ResourceSlice updated = slices().resource(new ResourceSliceBuilder(created).editSpec()
        .withNewPool().withName("pool").withGeneration(2L).withResourceSliceCount(1L).endPool()
        .endSpec().build()).update();
    assertThatThrownBy(() -> slices().resource(created).lockResourceVersion().delete())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(409))
        .hasMessageContaining("Precondition failed: ResourceVersion in precondition: "
            + created.getMetadata().getResourceVersion());
    HttpResponse<String> wrongUid = send(HttpRequest.newBuilder(URI.create(server.url()
        + "apis/resource.k8s.io/v1/resourceslices/a"))
        .method("DELETE", HttpRequest.BodyPublishers.ofString(
            "{\"kind\":\"DeleteOptions\",\"apiVersion\":\"v1\","
                + "\"preconditions\":{\"uid\":\"other-uid\"}}")));
    assertThat(wrongUid.statusCode()).isEqualTo(409);
    assertThat(wrongUid.body()).contains("Precondition failed: UID in precondition: other-uid");
    assertThat(slices().withName("a").get()).isNotNull();
    slices().resource(updated).lockResourceVersion().delete();
    assertThat(slices().withName("a").get()).isNull();
  }

  @Test
  void updateWithStaleResourceVersionConflicts() {
    ResourceSlice created = slices().resource(slice("a", DRIVER, "n1")).create();
    slices().resource(new ResourceSliceBuilder(created).editSpec().withNewPool().withName("pool")
        .withGeneration(2L).withResourceSliceCount(1L).endPool().endSpec().build()).update();
    assertThatThrownBy(() -> slices().resource(created).update())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(409));
  }

  @Test
  void generateNameGetsARealLookingSuffix() {
    ResourceSlice created = slices().resource(new ResourceSliceBuilder(slice(null, DRIVER, "n1"))
        .editMetadata().withGenerateName("00000-" + DRIVER + "-n1-").endMetadata().build())
        .create();
    assertThat(created.getMetadata().getName())
        .matches("00000-gpu\\.example\\.com-n1-[bcdfghjklmnpqrstvwxz2456789]{5}");
    assertThat(created.getMetadata().getUid()).isNotBlank();
    assertThat(Long.parseLong(created.getMetadata().getResourceVersion())).isPositive();
  }

  @Test
  void disabledGroupVersionAnswersNotFoundEverywhere() {
    var beta = client
        .resources(io.fabric8.kubernetes.api.model.resource.v1beta2.ResourceSlice.class);
    assertThatThrownBy(() -> beta.list()).as("1.36 serves v1beta2 only when asked to")
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(404));
    server.enableGroupVersion("resource.k8s.io/v1beta2");
    server.disableGroupVersion("resource.k8s.io/v1");
    assertThatThrownBy(() -> slices().list())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(404));
    assertThatThrownBy(() -> slices().resource(slice("a", DRIVER, "n1")).create())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(404));
    assertThat(beta.list().getItems()).isEmpty();
    assertThat(get("/apis/resource.k8s.io")).contains("resource.k8s.io/v1beta2")
        .doesNotContain("resource.k8s.io/v1\"");

    server.enableGroupVersion("resource.k8s.io/v1");
    assertThat(slices().list().getItems()).isEmpty();
  }

  @Test
  void injectedFaultsHitTheNextMatchingRequestsOnly() {
    ResourceSlice created = slices().resource(slice("a", DRIVER, "n1")).create();
    server.failNext(ApiVerb.UPDATE, "resourceslices", 409, 2);
    server.failNext(ApiVerb.CREATE, "resourceslices", 500, 1);

    assertThat(slices().withName("a").get()).isNotNull();
    for (int i = 0; i < 2; i++) {
      assertThatThrownBy(() -> slices().resource(created).update())
          .isInstanceOfSatisfying(KubernetesClientException.class,
              e -> assertThat(e.getCode()).isEqualTo(409))
          .hasMessageContaining("the object has been modified");
    }
    assertThatThrownBy(() -> slices().resource(slice("b", DRIVER, "n1")).create())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(500));
    assertThat(server.pendingFaults()).isZero();
    slices().resource(created).update();
    slices().resource(slice("b", DRIVER, "n1")).create();
    assertThat(names(slices().list().getItems())).containsExactly("a", "b");
  }

  @Test
  void transformerDropsFieldFromStoredAndReturnedObjects() {
    server.addTransformer(GroupVersionResource.RESOURCE_SLICES_V1,
        StoredObjectTransformer.removeField("spec.devices[].taints"));
    Device tainted = new DeviceBuilder().withName("d0").addNewTaint().withKey("k").withValue("v")
        .withEffect("NoSchedule").endTaint().build();
    ResourceSlice returned = slices().resource(slice("a", DRIVER, "n1", tainted)).create();

    assertThat(returned.getSpec().getDevices().get(0).getTaints()).isEmpty();
    assertThat(slices().withName("a").get().getSpec().getDevices().get(0).getTaints()).isEmpty();
    assertThat(slices().withName("a").get().getSpec().getDevices().get(0).getName())
        .isEqualTo("d0");
  }

  @Test
  void resourceSliceLimitsAreValidated() {
    Device[] plain = IntStream.range(0, 129).mapToObj(i -> new DeviceBuilder().withName("d" + i)
        .build()).toArray(Device[]::new);
    assertThatThrownBy(() -> slices().resource(slice("a", DRIVER, "n1", plain)).create())
        .isInstanceOfSatisfying(KubernetesClientException.class,
            e -> assertThat(e.getCode()).isEqualTo(422))
        .hasMessageContaining("spec.devices: Too many: 129: must have at most 128 items");
    Device[] tainted = IntStream.range(0, 65).mapToObj(i -> new DeviceBuilder().withName("d" + i)
        .addNewTaint().withKey("k").withEffect("NoSchedule").endTaint().build())
        .toArray(Device[]::new);
    assertThatThrownBy(() -> slices().resource(slice("b", DRIVER, "n1", tainted)).create())
        .hasMessageContaining("spec.devices: Too many: 65: must have at most 64 items");
    slices().resource(slice("c", DRIVER, "n1",
        IntStream.range(0, 128).mapToObj(i -> new DeviceBuilder().withName("d" + i).build())
            .toArray(Device[]::new)))
        .create();
    assertThat(names(slices().list().getItems())).containsExactly("c");
  }

  @Test
  void requestLogCountsWrites() {
    slices().resource(slice("a", DRIVER, "n1")).create();
    slices().list();
    slices().withName("a").delete();
    assertThat(server.countWrites("resourceslices")).isEqualTo(2);
    assertThat(server.requests()).extracting(ApiRequest::verb)
        .containsExactly(ApiVerb.CREATE, ApiVerb.LIST, ApiVerb.DELETE);
    server.clearRequests();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void discoveryAndVersionDescribeTheServer() {
    assertThat(client.getKubernetesVersion().getGitVersion()).isEqualTo("v1.36.0");
    assertThat(get("/apis/resource.k8s.io/v1")).contains("\"resourceslices\"")
        .contains("\"kind\":\"ResourceSlice\"");
    assertThat(get("/api/v1")).contains("\"pods\"");
    assertThat(client.getApiGroups().getGroups())
        .filteredOn(g -> g.getName().equals("resource.k8s.io")).singleElement()
        .satisfies(g -> {
          assertThat(g.getPreferredVersion().getVersion()).isEqualTo("v1");
          assertThat(g.getVersions()).extracting(v -> v.getVersion()).containsExactly("v1");
        });
    server.enableGroupVersion("resource.k8s.io/v1beta1");
    server.enableGroupVersion("resource.k8s.io/v1beta2");
    server.enableGroupVersion("resource.k8s.io/v1alpha3");
    assertThat(client.getApiGroups().getGroups())
        .filteredOn(g -> g.getName().equals("resource.k8s.io")).singleElement()
        .satisfies(g -> assertThat(g.getVersions()).extracting(v -> v.getVersion())
            .containsExactly("v1", "v1beta2", "v1beta1", "v1alpha3"));
    assertThat(get("/apis/resource.k8s.io/v1alpha3")).contains("\"devicetaintrules\"")
        .doesNotContain("\"resourceslices\"");
    assertThat(get("/apis/resource.k8s.io/v1beta2")).contains("\"devicetaintrules\"",
        "\"resourceslices\"");
    assertThat(get("/apis/resource.k8s.io/v1")).doesNotContain("\"devicetaintrules\"");
  }

  @Test
  void genericClientsWorkOnCoreAndDraResources() {
    GenericKubernetesResource claim = new GenericKubernetesResource();
    claim.setApiVersion("resource.k8s.io/v1");
    claim.setKind("ResourceClaim");
    claim.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName("c")
        .withNamespace("default").build());
    claim.setAdditionalProperties(Map.of("spec", Map.of()));
    client.genericKubernetesResources("resource.k8s.io/v1", "ResourceClaim").inNamespace("default")
        .resource(claim).create();
    assertThat(client.dynamicResourceAllocation().v1().resourceClaims().inNamespace("default")
        .withName("c").get()).isNotNull();
  }

  @Test
  void claimTemplatesAndDeviceClassesAreStoredWithTheirScope() {
    var dra = client.dynamicResourceAllocation().v1();
    for (String namespace : List.of("ml", "web")) {
      dra.resourceClaimTemplates().inNamespace(namespace)
          .resource(new ResourceClaimTemplateBuilder()
              .withNewMetadata().withName("two-gpus").endMetadata()
              .withNewSpec().withNewSpec().withNewDevices().addNewRequest().withName("gpus")
              .withNewExactly().withDeviceClassName("gpu").withCount(2L).endExactly()
              .endRequest().endDevices().endSpec().endSpec()
              .build())
          .create();
    }
    dra.deviceClasses().resource(new DeviceClassBuilder().withNewMetadata().withName("gpu")
        .endMetadata().withNewSpec().addNewSelector().withNewCel()
        .withExpression("device.driver == \"" + DRIVER + "\"").endCel().endSelector().endSpec()
        .build()).create();

    ResourceClaimTemplate read = dra.resourceClaimTemplates().inNamespace("ml").withName("two-gpus")
        .get();
    assertThat(read.getMetadata().getNamespace()).isEqualTo("ml");
    assertThat(read.getSpec().getSpec().getDevices().getRequests()).singleElement()
        .satisfies(request -> assertThat(request.getExactly().getCount()).isEqualTo(2L));
    assertThat(dra.resourceClaimTemplates().inAnyNamespace().list().getItems())
        .extracting(t -> t.getMetadata().getNamespace()).containsExactlyInAnyOrder("ml", "web");
    assertThat(dra.deviceClasses().withName("gpu").get().getMetadata().getNamespace()).isNull();
    assertThat(dra.deviceClasses().withName("gpu").get().getSpec().getSelectors()).singleElement()
        .satisfies(selector -> assertThat(selector.getCel().getExpression())
            .isEqualTo("device.driver == \"" + DRIVER + "\""));

    dra.resourceClaimTemplates().inNamespace("web").withName("two-gpus").delete();

    assertThat(dra.resourceClaimTemplates().inAnyNamespace().list().getItems())
        .extracting(t -> t.getMetadata().getNamespace()).containsExactly("ml");
  }

  private String get(String path) {
    return send(HttpRequest.newBuilder(URI.create(server.url() + path.substring(1)))).body();
  }

  private static HttpResponse<String> send(HttpRequest.Builder request) {
    try {
      return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static <T extends io.fabric8.kubernetes.api.model.HasMetadata> Watcher<T> recorder(
      List<String> events) {
    return new Watcher<>() {
      @Override
      public void eventReceived(Action action, T resource) {
        events.add(action + " " + resource.getMetadata().getName());
      }

      @Override
      public void onClose(WatcherException cause) {
        events.add("closed gone=" + cause.isHttpGone() + " " + cause.getMessage());
      }
    };
  }
}
