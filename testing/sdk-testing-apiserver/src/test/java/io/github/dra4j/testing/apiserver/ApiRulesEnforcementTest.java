package io.github.dra4j.testing.apiserver;

import static io.github.dra4j.testing.apiserver.DraObjects.DRIVER;
import static io.github.dra4j.testing.apiserver.DraObjects.LABEL_DETAIL;
import static io.github.dra4j.testing.apiserver.DraObjects.assertInvalid;
import static io.github.dra4j.testing.apiserver.DraObjects.cause;
import static io.github.dra4j.testing.apiserver.DraObjects.claim;
import static io.github.dra4j.testing.apiserver.DraObjects.deviceClass;
import static io.github.dra4j.testing.apiserver.DraObjects.refused;
import static io.github.dra4j.testing.apiserver.DraObjects.slice;
import static io.github.dra4j.testing.apiserver.DraObjects.template;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.resource.v1.AllocatedDeviceStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTolerationBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReference;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimConsumerReferenceBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatusBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The in-memory API server enforces kube-apiserver 1.36's rules for {@code resource.k8s.io} as a
 * real server answers them, seen through fabric8: refused writes are 422 {@code Invalid} with the
 * server's message and one cause per refused field, defaults and strategies decide what is
 * stored, patches and status updates go through the same rules, and feature gates, dry runs,
 * served versions and namespace labels behave as on a real server.
 */
class ApiRulesEnforcementTest {

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

  private static final String COUNT_NEGATIVE = "Invalid value: -1: must be greater than zero";

  @Test
  void invalidCreatesOfEveryKindAreRefusedWithTheServersStatus() {
    var dra = client.dynamicResourceAllocation().v1();

    ResourceSlice badSlice = slice("bad-slice", "GPU-0");
    badSlice.getSpec().setDriver("");
    String label = LABEL_DETAIL;
    assertInvalid(refused(() -> dra.resourcesSlices().resource(badSlice).create()),
        "ResourceSlice", "bad-slice",
        "[spec.driver: Required value, spec.devices[0].name: Invalid value: \"GPU-0\": " + label
            + "]",
        cause("FieldValueRequired", "spec.driver", "Required value"),
        cause("FieldValueInvalid", "spec.devices[0].name", "Invalid value: \"GPU-0\": " + label));

    assertInvalid(refused(() -> dra.resourceClaims().resource(claim("bad-claim", -1)).create()),
        "ResourceClaim", "bad-claim",
        "spec.devices.requests[0].exactly.count: " + COUNT_NEGATIVE,
        cause("FieldValueInvalid", "spec.devices.requests[0].exactly.count", COUNT_NEGATIVE));

    assertInvalid(refused(() -> dra.resourceClaimTemplates().resource(template("bad-template", -1))
        .create()),
        "ResourceClaimTemplate", "bad-template",
        "spec.spec.devices.requests[0].exactly.count: " + COUNT_NEGATIVE,
        cause("FieldValueInvalid", "spec.spec.devices.requests[0].exactly.count", COUNT_NEGATIVE));

    String subdomain = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric"
        + " characters, '-' or '.', and must start and end with an alphanumeric character (e.g."
        + " 'example.com', regex used for validation is"
        + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
    assertInvalid(refused(() -> dra.deviceClasses().resource(deviceClass("Bad_Class")).create()),
        "DeviceClass", "Bad_Class",
        "metadata.name: Invalid value: \"Bad_Class\": " + subdomain,
        cause("FieldValueInvalid", "metadata.name", "Invalid value: \"Bad_Class\": " + subdomain));

    assertThat(server.countRequests(r -> r.isSuccessfulWrite())).isZero();
    assertThat(dra.resourcesSlices().list().getItems()).isEmpty();
    assertThat(dra.resourceClaims().inAnyNamespace().list().getItems()).isEmpty();
    assertThat(dra.resourceClaimTemplates().inAnyNamespace().list().getItems()).isEmpty();
    assertThat(dra.deviceClasses().list().getItems()).isEmpty();
  }

  private static final String ALLOCATION = "{\"allocation\":{\"devices\":{\"results\":[{"
      + "\"request\":\"gpu\",\"driver\":\"" + DRIVER + "\",\"pool\":\"node-1\","
      + "\"device\":\"gpu-0\"}]}}}";

  private ResourceClaim allocatedClaim(String name) {
    var claims = client.dynamicResourceAllocation().v1().resourceClaims();
    ResourceClaim created = claims.resource(claim(name, 1)).create();
    created.setStatus(Serialization.unmarshal(ALLOCATION, ResourceClaimStatus.class));
    return claims.resource(created).updateStatus();
  }

  @Test
  void defaultsAndServerSetFieldsLandInTheStoredObject() {
    var dra = client.dynamicResourceAllocation().v1();
    ResourceClaim plain = claim("plain", 0);
    plain.getSpec().getDevices().getRequests().get(0).getExactly().setCount(null);
    plain.getSpec().getDevices().getRequests().get(0).getExactly().setTolerations(List.of(
        new DeviceTolerationBuilder().withKey("k").withValue("v").withEffect("NoSchedule")
            .build()));
    ResourceClaim returned = dra.resourceClaims().resource(plain).create();
    ResourceClaim stored = dra.resourceClaims().withName("plain").get();
    for (ResourceClaim claim : List.of(returned, stored)) {
      ExactDeviceRequest exactly = claim.getSpec().getDevices().getRequests().get(0).getExactly();
      assertThat(exactly.getAllocationMode()).isEqualTo("ExactCount");
      assertThat(exactly.getCount()).isEqualTo(1L);
      assertThat(exactly.getTolerations()).singleElement()
          .extracting(DeviceToleration::getOperator).isEqualTo("Equal");
    }
    assertThat(dra.resourceClaims().resource(claim("zero", 0)).create().getSpec().getDevices()
        .getRequests().get(0).getExactly().getCount())
        .as("a count of 0 is no count: the default applies").isEqualTo(1L);

    ResourceSlice tainted = slice("tainted", "gpu-0");
    tainted.getSpec().getDevices().get(0).setTaints(List.of(new DeviceTaintBuilder()
        .withKey("k").withEffect("NoSchedule").build()));
    Instant before = Instant.now().truncatedTo(ChronoUnit.SECONDS);
    dra.resourcesSlices().resource(tainted).create();
    ResourceSlice storedSlice = dra.resourcesSlices().withName("tainted").get();
    assertThat(Instant.parse(storedSlice.getSpec().getDevices().get(0).getTaints().get(0)
        .getTimeAdded())).isBetween(before, Instant.now());
    assertThat(storedSlice.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(dra.deviceClasses().resource(deviceClass(DRIVER)).create().getMetadata()
        .getGeneration()).isEqualTo(1L);
  }

  @Test
  void theGenerationIsSetWhereTheServerSetsIt() {
    var dra = client.dynamicResourceAllocation().v1();
    var slices = dra.resourcesSlices();
    slices.resource(slice("s", "gpu-0")).create();
    slices.withName("s").edit(slice -> {
      slice.getMetadata().setLabels(Map.of("k", "v"));
      return slice;
    });
    assertThat(slices.withName("s").get().getMetadata().getGeneration())
        .as("metadata changes keep the generation").isEqualTo(1L);
    ResourceSlice changed = slices.withName("s").get();
    changed.getSpec().getDevices().get(0).setName("gpu-1");
    assertThat(slices.resource(changed).update().getMetadata().getGeneration()).isEqualTo(2L);
    assertThat(slices.withName("s").get().getMetadata().getGeneration()).isEqualTo(2L);

    assertThat(dra.resourceClaims().resource(claim("c", 1)).create().getMetadata()
        .getGeneration()).as("claims have no generation").isNull();
    ResourceClaim claim = dra.resourceClaims().withName("c").get();
    assertThat(claim.getMetadata().getGeneration()).isNull();
    claim.getMetadata().setLabels(Map.of("k", "v"));
    assertThat(dra.resourceClaims().resource(claim).update().getMetadata().getGeneration())
        .isNull();
    assertThat(dra.resourceClaimTemplates().resource(template("t", 1)).create().getMetadata()
        .getGeneration()).as("nor have templates").isNull();
    assertThat(dra.resourceClaimTemplates().withName("t").get().getMetadata().getGeneration())
        .isNull();
    ResourceClaim numbered = claim("numbered", 1);
    numbered.getMetadata().setGeneration(5L);
    assertThat(dra.resourceClaims().resource(numbered).create().getMetadata().getGeneration())
        .as("a claim keeps the generation its client sent").isEqualTo(5L);

    dra.deviceClasses().resource(deviceClass("gpu")).create();
    assertThat(dra.deviceClasses().withName("gpu").edit(deviceClass -> {
      deviceClass.getSpec().getSelectors().get(0).getCel().setExpression("true");
      return deviceClass;
    }).getMetadata().getGeneration()).isEqualTo(2L);
  }

  @Test
  void aClaimsStatusIsDroppedOnCreateAndAnUpdateKeepsTheStoredStatus() {
    var claims = client.dynamicResourceAllocation().v1().resourceClaims();
    ResourceClaim withStatus = claim("c", 1);
    withStatus.setStatus(Serialization.unmarshal(ALLOCATION, ResourceClaimStatus.class));
    assertThat(claims.resource(withStatus).create().getStatus()).satisfiesAnyOf(
        status -> assertThat(status).isNull(),
        status -> assertThat(status.getAllocation()).isNull());
    assertThat(claims.withName("c").get().getStatus().getAllocation()).isNull();

    ResourceClaim allocated = allocatedClaim("allocated");
    allocated.getStatus().setAllocation(null);
    allocated.getMetadata().setLabels(Map.of("changed", "yes"));
    ResourceClaim updated = claims.resource(allocated).update();

    ResourceClaim stored = claims.withName("allocated").get();
    assertThat(stored.getMetadata().getLabels()).containsEntry("changed", "yes");
    assertThat(stored.getStatus().getAllocation().getDevices().getResults()).singleElement()
        .extracting(DeviceRequestAllocationResult::getDevice).isEqualTo("gpu-0");
    assertThat(updated.getStatus().getAllocation()).isNotNull();
  }

  @Test
  void aStatusUpdateKeepsTheStoredSpecAndTheSpecIsImmutable() {
    var claims = client.dynamicResourceAllocation().v1().resourceClaims();
    allocatedClaim("c");

    ResourceClaim changedSpec = claims.withName("c").get();
    changedSpec.getSpec().getDevices().getRequests().get(0).getExactly().setCount(2L);
    changedSpec.getMetadata().setLabels(Map.of("through", "status"));
    changedSpec.getStatus().setReservedFor(List.of(new ResourceClaimConsumerReferenceBuilder()
        .withResource("pods").withName("p").withUid("u-1").build()));
    claims.resource(changedSpec).updateStatus();
    ResourceClaim stored = claims.withName("c").get();
    assertThat(stored.getSpec().getDevices().getRequests().get(0).getExactly().getCount())
        .isEqualTo(1L);
    assertThat(stored.getMetadata().getLabels()).as("nor labels through status").isNullOrEmpty();
    assertThat(stored.getStatus().getReservedFor()).singleElement()
        .extracting(ResourceClaimConsumerReference::getName).isEqualTo("p");

    stored.getSpec().getDevices().getRequests().get(0).getExactly().setCount(2L);
    Status status = refused(() -> claims.resource(stored).update()).getStatus();
    assertThat(status.getMessage()).startsWith("ResourceClaim.resource.k8s.io \"c\" is invalid:"
        + " spec: Invalid value: ").endsWith(": field is immutable");
    assertThat(status.getDetails().getCauses()).singleElement().satisfies(cause -> {
      assertThat(cause.getField()).isEqualTo("spec");
      assertThat(cause.getReason()).isEqualTo("FieldValueInvalid");
      assertThat(cause.getMessage()).startsWith("Invalid value: ").endsWith("field is immutable");
    });
    assertThat(claims.withName("c").get().getSpec().getDevices().getRequests().get(0)
        .getExactly().getCount()).isEqualTo(1L);
  }

  @Test
  void patchesThatMakeAnObjectInvalidAreRefusedAndChangeNothing() {
    var slices = client.dynamicResourceAllocation().v1().resourcesSlices();
    slices.resource(slice("s", "gpu-0")).create();
    String version = slices.withName("s").get().getMetadata().getResourceVersion();
    String label = "Invalid value: \"GPU-1\": a lowercase RFC 1123 label must consist of";

    Status merge = refused(() -> slices.withName("s").patch(PatchContext.of(PatchType.JSON_MERGE),
        "{\"spec\":{\"devices\":[{\"name\":\"GPU-1\"}]}}")).getStatus();
    assertThat(merge.getMessage()).startsWith(
        "ResourceSlice.resource.k8s.io \"s\" is invalid: spec.devices[0].name: " + label);
    Status jsonPatch = refused(() -> slices.withName("s").patch(PatchContext.of(PatchType.JSON),
        "[{\"op\":\"replace\",\"path\":\"/spec/devices/0/name\",\"value\":\"GPU-1\"}]"))
        .getStatus();
    assertThat(jsonPatch.getDetails().getCauses()).singleElement()
        .satisfies(cause -> assertThat(cause.getMessage()).startsWith(label))
        .extracting(StatusCause::getField).isEqualTo("spec.devices[0].name");
    assertInvalid(refused(() -> slices.withName("s").edit(slice -> {
      slice.getSpec().setDriver("");
      return slice;
    })), "ResourceSlice", "s",
        "[spec.driver: Required value, spec.driver: Invalid value: \"\": field is immutable]",
        cause("FieldValueRequired", "spec.driver", "Required value"),
        cause("FieldValueInvalid", "spec.driver", "Invalid value: \"\": field is immutable"));

    ResourceSlice stored = slices.withName("s").get();
    assertThat(stored.getMetadata().getResourceVersion()).isEqualTo(version);
    assertThat(stored.getSpec().getDevices()).extracting(Device::getName).containsExactly("gpu-0");
    assertThat(stored.getSpec().getDriver()).isEqualTo(DRIVER);
  }

  @Test
  void statusPatchesGoThroughTheStatusRules() {
    var claims = client.dynamicResourceAllocation().v1().resourceClaims();
    claims.resource(claim("c", 1)).create();
    String forbidden = "may not be specified when `allocated` is not set";

    Status edited = refused(() -> claims.withName("c").editStatus(claim -> {
      claim.getStatus().setReservedFor(List.of(new ResourceClaimConsumerReferenceBuilder()
          .withResource("pods").withName("p").withUid("u-1").build()));
      return claim;
    })).getStatus();
    assertThat(edited.getMessage()).isEqualTo("ResourceClaim.resource.k8s.io \"c\" is invalid:"
        + " status.reservedFor: Forbidden: " + forbidden);
    assertThat(edited.getDetails().getCauses()).singleElement()
        .extracting(StatusCause::getReason, StatusCause::getField)
        .containsExactly("FieldValueForbidden", "status.reservedFor");

    ResourceClaim reserved = claims.withName("c").get();
    reserved.setStatus(new ResourceClaimStatusBuilder().addNewReservedFor().withResource("pods")
        .withName("p").withUid("u-1").endReservedFor().build());
    assertThat(refused(() -> claims.resource(reserved).patchStatus()).getStatus().getDetails()
        .getCauses()).extracting(StatusCause::getField).containsExactly("status.reservedFor");
    assertThat(claims.withName("c").get().getStatus().getReservedFor()).isEmpty();

    ResourceClaim patched = claims.withName("c").subresource("status")
        .patch(PatchContext.of(PatchType.JSON_MERGE), ALLOCATION.replace("{\"allocation\"",
            "{\"status\":{\"allocation\"") + "}");
    assertThat(patched.getStatus().getAllocation().getDevices().getResults()).hasSize(1);
    assertThat(patched.getSpec().getDevices().getRequests()).hasSize(1);
  }

  @Test
  void aBadDeviceStatusIsRefusedAtItsCondition() {
    var claims = client.dynamicResourceAllocation().v1().resourceClaims();
    ResourceClaim claim = allocatedClaim("c");
    claim.getStatus().setDevices(List.of(new AllocatedDeviceStatusBuilder().withDriver(DRIVER)
        .withPool("node-1").withDevice("gpu-0").addToConditions(new ConditionBuilder()
            .withType("Ready").withStatus("True").withLastTransitionTime("2026-01-02T03:04:05Z")
            .build())
        .build()));

    KubernetesClientException e = refused(() -> client.resource(claim).updateStatus());

    assertInvalid(e, "ResourceClaim", "c",
        "status.devices[0].conditions[0].reason: Required value: must be set",
        cause("FieldValueRequired", "status.devices[0].conditions[0].reason",
            "Required value: must be set"));
    assertThat(claims.withName("c").get().getStatus().getDevices()).isEmpty();
  }

  @Test
  void aDryRunOfAnInvalidObjectIsRefusedAndOfAValidOneStoresNothing() {
    var slices = client.dynamicResourceAllocation().v1().resourcesSlices();

    Status status = refused(() -> slices.resource(slice("s", "GPU-0")).dryRun().create())
        .getStatus();
    assertThat(status.getDetails().getCauses()).extracting(StatusCause::getField)
        .containsExactly("spec.devices[0].name");
    ResourceSlice answered = slices.resource(slice("s", "gpu-0")).dryRun().create();
    assertThat(answered.getMetadata().getGeneration()).isEqualTo(1L);
    assertThat(slices.list().getItems()).isEmpty();
  }
}
