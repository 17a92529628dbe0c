package io.github.dra4j.resourceslice;

import static io.github.dra4j.resourceslice.ControllerFixture.DRIVER;
import static io.github.dra4j.resourceslice.ControllerFixture.NODE;
import static io.github.dra4j.resourceslice.ControllerFixture.TIMEOUT;
import static io.github.dra4j.resourceslice.ControllerFixture.pool;
import static io.github.dra4j.resourceslice.ControllerFixture.slice;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How many writes each change of the desired state costs, and how pool generations move, against
 * the in-memory API server: a first publish, changes to some or all slices, slices added and
 * removed, mixed generations, legacy names, removed pools. The counts are those the Go
 * controller's tests expect, so a driver costs the API server the same whichever it uses.
 */
class GenerationScenariosTest {

  private final ControllerFixture fixture = new ControllerFixture();

  @AfterEach
  void close() {
    fixture.close();
  }

  private ResourceSliceController converged(DriverResources resources, List<List<String>> devices) {
    ResourceSliceController controller = fixture.start(resources);
    fixture.awaitPool("pool", devices);
    return controller;
  }

  private void assertStats(ResourceSliceController controller, ControllerStats expected) {
    fixture.awaitStats(controller, expected);
    assertThat(fixture.errors).isEmpty();
  }

  /** Publishes slices with devices a, b and c and waits until they are there. */
  private ResourceSliceController abcPublished() {
    return converged(pool("pool", slice("a"), slice("b"), slice("c")),
        List.of(List.of("a"), List.of("b"), List.of("c")));
  }

  private List<Long> generations() {
    return fixture.slicesOf("pool").stream().map(s -> s.getSpec().getPool().getGeneration())
        .toList();
  }

  private void createExisting(String name, long generation, long count, String device) {
    fixture.client.dynamicResourceAllocation().v1().resourcesSlices().resource(
        new ResourceSliceBuilder()
            .withNewMetadata().withName(name).endMetadata()
            .withNewSpec().withDriver(DRIVER).withNodeName(NODE)
            .withNewPool().withName("pool").withGeneration(generation)
            .withResourceSliceCount(count).endPool()
            .withDevices(ControllerFixture.device(device)).endSpec().build())
        .create();
  }

  @Test
  void firstPublishCreatesEachSliceOnceAtGenerationOne() {
    ResourceSliceController c = abcPublished();
    assertStats(c, new ControllerStats(3, 0, 0));
    assertThat(generations()).containsExactly(1L, 1L, 1L);
    assertThat(fixture.slicesOf("pool")).extracting(s -> s.getMetadata().getName())
        .allMatch(n -> n
            .matches("0000[0-2]-gpu\\.example\\.com-node-1-[bcdfghjklmnpqrstvwxz2456789]{5}"));
  }

  @Test
  void oneChangeAmongThreeIsOneUpdateAtTheSameGeneration() {
    ResourceSliceController c = abcPublished();
    c.update(pool("pool", slice("a"), slice("b2"), slice("c")));
    fixture.awaitPool("pool", List.of(List.of("a"), List.of("b2"), List.of("c")));
    assertStats(c, new ControllerStats(3, 1, 0));
    assertThat(generations()).containsExactly(1L, 1L, 1L);
  }

  @Test
  void twoChangesUpdateAllThreeAtGenerationTwo() {
    ResourceSliceController c = abcPublished();
    c.update(pool("pool", slice("a2"), slice("b2"), slice("c")));
    fixture.awaitPool("pool", List.of(List.of("a2"), List.of("b2"), List.of("c")));
    assertStats(c, new ControllerStats(3, 3, 0));
    assertThat(generations()).containsExactly(2L, 2L, 2L);
  }

  @Test
  void removingOneOfThreeIsTwoUpdatesAndOneDelete() {
    ResourceSliceController c = abcPublished();
    c.update(pool("pool", slice("a"), slice("b")));
    fixture.awaitPool("pool", List.of(List.of("a"), List.of("b")));
    assertStats(c, new ControllerStats(3, 2, 1));
    assertThat(generations()).containsExactly(2L, 2L);
  }

  @Test
  void addingOneIsThreeUpdatesAndOneCreate() {
    ResourceSliceController c = abcPublished();
    c.update(pool("pool", slice("a"), slice("b"), slice("c"), slice("d")));
    fixture.awaitPool("pool", List.of(List.of("a"), List.of("b"), List.of("c"), List.of("d")));
    assertStats(c, new ControllerStats(4, 3, 0));
    assertThat(generations()).containsExactly(2L, 2L, 2L, 2L);
  }

  @Test
  void mixedGenerationsWithOneDesiredSliceAreReplacedAtGenerationThree() {
    createExisting("00000-old-a", 1, 3, "x");
    createExisting("00001-old-b", 2, 3, "y");
    createExisting("00002-old-c", 1, 3, "z");
    ResourceSliceController c = converged(pool("pool", slice("a")), List.of(List.of("a")));
    assertStats(c, new ControllerStats(1, 0, 3));
    assertThat(generations()).containsExactly(3L);
  }

  @Test
  void legacyRandomNamesAreMigrated() {
    createExisting("gpu.example.com-node-1-abcde", 1, 3, "a");
    createExisting("gpu.example.com-node-1-fghjk", 1, 3, "b");
    createExisting("gpu.example.com-node-1-lmnpq", 1, 3, "c");
    ResourceSliceController c = converged(pool("pool", slice("a"), slice("b"), slice("c")),
        List.of(List.of("a"), List.of("b"), List.of("c")));
    assertStats(c, new ControllerStats(3, 0, 3));
    assertThat(generations()).containsExactly(2L, 2L, 2L);
    assertThat(fixture.slicesOf("pool")).extracting(s -> s.getMetadata().getName())
        .allMatch(n -> n.startsWith("0000"));
  }

  @Test
  void emptySliceListDeletesEverythingAndCreatesNothing() {
    ResourceSliceController c = converged(pool("pool", slice("a"), slice("b")),
        List.of(List.of("a"), List.of("b")));
    c.update(DriverResources.of("pool", Pool.builder().build()));
    await().atMost(TIMEOUT).until(() -> fixture.slicesOf("pool").isEmpty());
    assertStats(c, new ControllerStats(2, 0, 2));
  }

  @Test
  void removedPoolIsDeletedOtherPoolsStay() {
    ResourceSliceController c = fixture.start(DriverResources.builder()
        .pool("pool", Pool.builder().addSlice(slice("a")).build())
        .pool("other", Pool.builder().addSlice(slice("b")).build()).build());
    fixture.awaitPool("other", List.of(List.of("b")));
    fixture.awaitPool("pool", List.of(List.of("a")));
    c.update(DriverResources.of("other", Pool.builder().addSlice(slice("b")).build()));
    await().atMost(TIMEOUT).until(() -> fixture.slicesOf("pool").isEmpty());
    assertStats(c, new ControllerStats(2, 0, 1));
    assertThat(fixture.deviceNames("other")).containsExactly(List.of("b"));
  }

  @Test
  void driverGenerationFloorIsPublished() {
    ResourceSliceController c = fixture.start(DriverResources.of("pool",
        Pool.builder().generation(41).addSlice(slice("a")).build()));
    fixture.awaitPool("pool", List.of(List.of("a")));
    assertStats(c, new ControllerStats(1, 0, 0));
    assertThat(generations()).containsExactly(41L);
  }

  @Test
  void slicesCarryOwnerReferenceNodeNameAndHeader() {
    converged(pool("pool", slice("a"), slice("b")), List.of(List.of("a"), List.of("b")));
    ResourceSlice first = fixture.slicesOf("pool").get(0);
    assertThat(first.getSpec().getNodeName()).isEqualTo(NODE);
    assertThat(first.getSpec().getDriver()).isEqualTo(DRIVER);
    assertThat(first.getSpec().getPool().getResourceSliceCount()).isEqualTo(2L);
    assertThat(first.getSpec().getAllNodes()).isNull();
    assertThat(first.getMetadata().getLabels()).isNullOrEmpty();
    var owner = first.getMetadata().getOwnerReferences();
    assertThat(owner).hasSize(1);
    assertThat(owner.get(0).getKind()).isEqualTo("Node");
    assertThat(owner.get(0).getName()).isEqualTo(NODE);
    assertThat(owner.get(0).getUid()).isEqualTo(fixture.nodeUid);
    assertThat(owner.get(0).getController()).isTrue();
    assertThat(owner.get(0).getBlockOwnerDeletion()).isNull();
  }
}
