package io.github.dra4j.testing.apiserver;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.assertj.core.api.Assertions.tuple;

import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusCause;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClassBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateBuilder;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSliceBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.List;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.assertj.core.groups.Tuple;

/**
 * Small valid {@code resource.k8s.io/v1} objects for the tests of the API rules, and the checks of
 * a 422 answer as fabric8 hands it over. Stateless.
 */
final class DraObjects {

  static final String DRIVER = "gpu.example.com";
  static final String NAMESPACE = "default";

  /** The server's text for a DNS label that is not one, after the printed value. */
  static final String LABEL_DETAIL = "a lowercase RFC 1123 label must consist of lower case"
      + " alphanumeric characters or '-', and must start and end with an alphanumeric character"
      + " (e.g. 'my-name',  or '123-abc', regex used for validation is"
      + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

  private DraObjects() {}

  /**
   * One expected {@code details.causes[]} entry of a 422 answer.
   *
   * @param reason e.g. {@code FieldValueInvalid}
   * @param field e.g. {@code spec.devices[0].name}
   * @param message the error without its field
   */
  record Cause(String reason, String field, String message) {}

  static Cause cause(String reason, String field, String message) {
    return new Cause(reason, field, message);
  }

  /** Runs a write that must be refused with 422 and returns what fabric8 raised. */
  static KubernetesClientException refused(ThrowingCallable write) {
    KubernetesClientException e = catchThrowableOfType(KubernetesClientException.class, write);
    assertThat(e).as("the write was refused").isNotNull();
    assertThat(e.getCode()).as(e.getMessage()).isEqualTo(422);
    return e;
  }

  /**
   * Asserts the whole {@code Status} of a 422 answer about a {@code resource.k8s.io} object.
   *
   * @param e what fabric8 raised
   * @param kind the object's kind
   * @param name the object's name
   * @param errors the message after {@code is invalid: }
   * @param causes the causes, in order
   */
  static void assertInvalid(KubernetesClientException e, String kind, String name,
      String errors, Cause... causes) {
    Status status = e.getStatus();
    assertThat(status.getCode()).isEqualTo(422);
    assertThat(status.getStatus()).isEqualTo("Failure");
    assertThat(status.getReason()).isEqualTo("Invalid");
    assertThat(status.getMessage())
        .isEqualTo(kind + ".resource.k8s.io \"" + name + "\" is invalid: " + errors);
    assertThat(status.getDetails().getGroup()).isEqualTo("resource.k8s.io");
    assertThat(status.getDetails().getKind()).isEqualTo(kind);
    assertThat(status.getDetails().getName()).isEqualTo(name);
    assertThat(status.getDetails().getCauses())
        .extracting(StatusCause::getReason, StatusCause::getField, StatusCause::getMessage)
        .containsExactly(List.of(causes).stream()
            .map(c -> tuple(c.reason(), c.field(), c.message()))
            .toArray(Tuple[]::new));
  }

  /** A slice of one device on node {@code node-1}, pool {@code node-1}. */
  static ResourceSlice slice(String name, String deviceName) {
    return new ResourceSliceBuilder()
        .withNewMetadata().withName(name).endMetadata()
        .withNewSpec().withDriver(DRIVER).withNodeName("node-1")
        .withNewPool().withName("node-1").withGeneration(1L).withResourceSliceCount(1L).endPool()
        .addNewDevice().withName(deviceName).endDevice()
        .endSpec().build();
  }

  /** A claim in {@code default} with one request {@code gpu} for {@code count} devices. */
  static ResourceClaim claim(String name, long count) {
    return new ResourceClaimBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
        .withNewSpec().withNewDevices().addNewRequest().withName("gpu")
        .withNewExactly().withDeviceClassName(DRIVER).withCount(count).endExactly()
        .endRequest().endDevices().endSpec().build();
  }

  /** A template in {@code default} for the claim of {@link #claim}. */
  static ResourceClaimTemplate template(String name, long count) {
    return new ResourceClaimTemplateBuilder()
        .withNewMetadata().withName(name).withNamespace(NAMESPACE).endMetadata()
        .withNewSpec().withSpec(claim("x", count).getSpec()).endSpec().build();
  }

  /** A class that selects the devices of {@link #DRIVER}. */
  static DeviceClass deviceClass(String name) {
    return new DeviceClassBuilder().withNewMetadata().withName(name).endMetadata()
        .withNewSpec().addNewSelector().withNewCel()
        .withExpression("device.driver == \"" + DRIVER + "\"").endCel().endSelector().endSpec()
        .build();
  }
}
