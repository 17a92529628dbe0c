package io.github.dra4j.webhook;

import static io.github.dra4j.webhook.Reviews.entry;
import static io.github.dra4j.webhook.Reviews.gpuConfig;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.resourceclaim.config.ConfigProblem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

class AdmissionReviewHandlerTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private final AdmissionReviewHandler handler = AdmissionReviewHandler.of(SharingConfig.DRIVER,
      SharingConfig.scheme());

  static Stream<Arguments> versionsAndKinds() {
    List<Arguments> all = new ArrayList<>();
    for (String version : AdmissionReviewHandler.VERSIONS) {
      for (Reviews.Kind kind : Reviews.Kind.values()) {
        all.add(Arguments.of(version, kind));
      }
    }
    return all.stream();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("versionsAndKinds")
  void validConfigurationsOfEveryVersionAndKindAreAllowed(String version, Reviews.Kind kind) {
    String configs = "["
        + entry("", gpuConfig("\"sharing\": {\"strategy\": \"TimeSlicing\", "
            + "\"timeSlicingConfig\": {\"interval\": \"Long\"}}"))
        + ", "
        // No sharing at all: the plugin normalizes it to TimeSlicing/Default, so it is valid
        // here too (the SIG example's webhook refuses it while its plugin accepts it).
        + entry("\"gpu\"", gpuConfig("")) + ", "
        + entry("\"fallback/large\"", gpuConfig("\"sharing\": {\"strategy\": "
            + "\"SpacePartitioning\"}"))
        + ", "
        + entry("nic.example.com", "\"nic\"", "{\"anything\": [1, 2, 3]}") + ", "
        + "{\"requests\": [\"nic\"]}"
        + "]";
    String body = Reviews.review(version, kind, configs);

    AdmissionDecision decision = handler.handle(bytes(body));

    assertThat(decision.allowed()).isTrue();
    assertThat(decision.problems()).isEmpty();
    assertThat(decision.warnings()).isEmpty();
    JsonNode review = JSON.readTree(decision.response());
    assertThat(review.path("apiVersion").asString()).isEqualTo("admission.k8s.io/v1");
    assertThat(review.path("kind").asString()).isEqualTo("AdmissionReview");
    assertThat(review.path("response").path("uid").asString())
        .isEqualTo(JSON.readTree(body).path("request").path("uid").asString());
    assertThat(review.path("response").path("allowed").asBoolean()).isTrue();
    assertThat(review.path("response").has("status")).isFalse();
  }

  @ParameterizedTest(name = "{0} {1}")
  @MethodSource("versionsAndKinds")
  void everyProblemOfAnObjectIsInOneDenialWithItsPath(String version, Reviews.Kind kind) {
    String configs = "["
        + entry("", gpuConfig("\"sharing\": {\"strategy\": \"Fast\"}")) + ", "
        + entry("\"gpu\"", gpuConfig("\"sharing\": {\"strategy\": \"TimeSlicing\"}")) + ", "
        + entry("\"gpu\"", gpuConfig("\"sharing\": {\"strategy\": \"SpacePartitioning\", "
            + "\"timeSlicingConfig\": {\"interval\": \"Short\"}, "
            + "\"spacePartitioningConfig\": {\"partitionCount\": 0}}"))
        + ", "
        + entry("\"gpu/a/b\"", "{\"kind\": \"GpuConfig\", \"color\": \"red\"}")
        + "]";
    String at = kind.configPath();

    AdmissionDecision decision = handler.handle(bytes(Reviews.review(version, kind, configs)));

    assertThat(decision.allowed()).isFalse();
    assertThat(decision.problems()).extracting(ConfigProblem::path).containsExactly(
        at + "[0].opaque.parameters.sharing.strategy",
        at + "[2].opaque.parameters.sharing.timeSlicingConfig",
        at + "[2].opaque.parameters.sharing.spacePartitioningConfig.partitionCount",
        at + "[3].requests[0]",
        at + "[3].opaque.parameters");
    assertThat(decision.problems().get(0).message()).contains("\"Fast\"")
        .contains("TimeSlicing").contains("SpacePartitioning");
    assertThat(decision.problems().get(2).message()).isEqualTo("must be at least 1, got 0");
    assertThat(decision.problems().get(4).message()).isEqualTo("missing \"apiVersion\"");

    JsonNode response = JSON.readTree(decision.response()).path("response");
    assertThat(response.path("allowed").asBoolean()).isFalse();
    JsonNode status = response.path("status");
    assertThat(status.path("status").asString()).isEqualTo("Failure");
    assertThat(status.path("reason").asString()).isEqualTo("Invalid");
    assertThat(status.path("code").asInt()).isEqualTo(422);
    assertThat(status.path("message").asString())
        .startsWith(kind.kind + " team-a/shared-gpus: 5 problems in the device configuration "
            + "of driver gpu.example.com: " + at + "[0].opaque.parameters.sharing.strategy: ")
        .contains("; " + at + "[2].opaque.parameters.sharing.spacePartitioningConfig"
            + ".partitionCount: must be at least 1, got 0;");
    assertThat(status.path("details").path("kind").asString()).isEqualTo(kind.kind);
    assertThat(status.path("details").path("causes")).hasSize(5);
    assertThat(status.path("details").path("causes").get(1).path("field").asString())
        .isEqualTo(at + "[2].opaque.parameters.sharing.timeSlicingConfig");
    assertThat(status.path("details").path("causes").get(1).path("reason").asString())
        .isEqualTo("FieldValueInvalid");
  }

  @Test
  void strictDecodingErrorsNameTheFieldAndTheValue() {
    String configs = "["
        + entry("", gpuConfig("\"sharing\": {\"strategy\": \"TimeSlicing\", \"extra\": 1}"))
        + ", " + entry("", gpuConfig("\"sharing\": {\"strategy\": 7}"))
        + ", " + entry("", "{\"apiVersion\": \"" + SharingConfig.API_VERSION
            + "\", \"kind\": \"MigConfig\"}")
        + ", " + entry("", "[1, 2]")
        + ", " + entry("", gpuConfig("\"sharing\": null"))
        + "]";

    AdmissionDecision decision = handler.handle(
        bytes(Reviews.review("v1", Reviews.Kind.CLAIM, configs)));

    assertThat(decision.problems()).extracting(ConfigProblem::toString).containsExactly(
        "spec.devices.config[0].opaque.parameters.sharing: unknown field \"extra\"",
        "spec.devices.config[1].opaque.parameters.sharing.strategy: unknown value 7, "
            + "want one of \"TimeSlicing\", \"SpacePartitioning\"",
        "spec.devices.config[2].opaque.parameters: unknown apiVersion "
            + "\"gpu.example.com/v1alpha1\" and kind \"MigConfig\"; known: "
            + "gpu.example.com/v1alpha1 BrokenConfig, gpu.example.com/v1alpha1 GpuConfig, "
            + "gpu.example.com/v1alpha1 SlowConfig",
        "spec.devices.config[3].opaque.parameters: want a JSON object, got [1,2]",
        "spec.devices.config[4].opaque.parameters.sharing: null is not allowed");
  }

  @Test
  void configurationsOfOtherDriversAndEntriesWithoutOpaqueAreLeftAlone() {
    String configs = "["
        + entry("other.example.com", "", "{\"not\": \"checked\"}") + ", "
        + "{\"requests\": []}, "
        + "{\"opaque\": {\"driver\": 42}}"
        + "]";

    AdmissionDecision decision = handler.handle(
        bytes(Reviews.review("v1", Reviews.Kind.CLAIM, configs)));

    assertThat(decision.allowed()).isTrue();
  }

  @Test
  void aBugInTheDriversCheckIsADenialNotACrash() {
    String configs = "[" + entry("", "{\"apiVersion\": \"" + SharingConfig.API_VERSION
        + "\", \"kind\": \"BrokenConfig\"}") + "]";

    AdmissionDecision decision = handler.handle(
        bytes(Reviews.review("v1beta2", Reviews.Kind.TEMPLATE, configs)));

    assertThat(decision.allowed()).isFalse();
    assertThat(decision.problems()).singleElement().satisfies(p -> {
      assertThat(p.path()).isEqualTo("spec.spec.devices.config[0].opaque.parameters");
      assertThat(p.message()).startsWith("the driver's configuration check failed: "
          + "java.lang.NullPointerException");
    });
  }

  @Test
  void anObjectWithoutConfigurationsIsAllowed() {
    String object = Reviews.object("v1", Reviews.Kind.CLAIM, "[]")
        .replace("\"config\": []", "\"config\": null");

    assertThat(handler.handle(bytes(Reviews.review("CREATE", "v1", Reviews.Kind.CLAIM,
        object))).allowed()).isTrue();
  }

  @Test
  void deleteAndConnectAreAllowedWithoutAnObject() {
    String body = Reviews.review("DELETE", "v1", Reviews.Kind.CLAIM, "null");

    AdmissionDecision decision = handler.handle(bytes(body));

    assertThat(decision.allowed()).isTrue();
    assertThat(decision.warnings()).isEmpty();
  }

  @Test
  void objectsTheWebhookDoesNotKnowAreAllowedWithAWarning() {
    String bad = "[" + entry("", gpuConfig("\"sharing\": {\"strategy\": \"Fast\"}")) + "]";
    String v1alpha3 = Reviews.review("CREATE", "resource.k8s.io", "v1alpha3", "ResourceClaim",
        "resourceclaims", Reviews.object("v1beta1", Reviews.Kind.CLAIM, bad));
    String pod = Reviews.review("CREATE", "", "v1", "Pod", "pods",
        "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"spec\": {}}");
    String status = Reviews.review("UPDATE", "v1", Reviews.Kind.CLAIM,
        Reviews.object("v1", Reviews.Kind.CLAIM, bad))
        .replace("\"operation\"", "\"subResource\": \"status\", \"operation\"");

    assertThat(handler.handle(bytes(v1alpha3))).satisfies(d -> {
      assertThat(d.allowed()).isTrue();
      assertThat(d.warnings()).containsExactly("the device configuration webhook of "
          + "gpu.example.com does not validate resource.k8s.io/v1alpha3 ResourceClaim; allowed");
      assertThat(JSON.readTree(d.response()).path("response").path("warnings").get(0)
          .asString()).isEqualTo(d.warnings().get(0));
    });
    assertThat(handler.handle(bytes(pod))).satisfies(d -> {
      assertThat(d.allowed()).isTrue();
      assertThat(d.warnings()).singleElement().asString().contains("does not validate v1 Pod");
    });
    assertThat(handler.handle(bytes(status))).satisfies(d -> {
      assertThat(d.allowed()).isTrue();
      assertThat(d.warnings()).singleElement().asString()
          .contains("does not validate the status subresource");
    });
  }

  @Test
  void anUpdateIsValidatedLikeACreate() {
    String bad = "[" + entry("", gpuConfig("\"sharing\": {\"strategy\": \"Fast\"}")) + "]";
    String body = Reviews.review("UPDATE", "v1", Reviews.Kind.CLAIM,
        Reviews.object("v1", Reviews.Kind.CLAIM, bad));

    assertThat(handler.handle(bytes(body)).allowed()).isFalse();
  }

  @Test
  void bodiesThatAreNoReviewAreRefusedNamingWhy() {
    String valid = Reviews.review("v1", Reviews.Kind.CLAIM, "[]");
    assertThatThrownBy(() -> handler.handle(bytes("{\"apiVersion\": ")))
        .isInstanceOf(InvalidAdmissionReviewException.class)
        .hasMessageStartingWith("body is not JSON: ");
    assertThatThrownBy(() -> handler.handle(bytes("[]")))
        .hasMessage("body is not a JSON object");
    assertThatThrownBy(() -> handler.handle(bytes("")))
        .isInstanceOf(InvalidAdmissionReviewException.class);
    assertThatThrownBy(() -> handler.handle(bytes(valid.replace("admission.k8s.io/v1",
        "admission.k8s.io/v1beta1"))))
        .hasMessage("apiVersion \"admission.k8s.io/v1beta1\" and kind \"AdmissionReview\" "
            + "are not admission.k8s.io/v1 AdmissionReview");
    assertThatThrownBy(() -> handler.handle(bytes(valid.replaceFirst("\"uid\": \"[^\"]+\"",
        "\"uid\": \"\""))))
        .hasMessage("request.uid: missing or empty, got \"\"");
    assertThatThrownBy(() -> handler.handle(bytes(Reviews.review("CREATE", "v1",
        Reviews.Kind.CLAIM, "null"))))
        .hasMessage("request.object: want the object for a CREATE");
    assertThatThrownBy(() -> handler.handle(bytes(valid.replace("\"name\": \"shared-gpus\",",
        "\"name\": \"shared-gpus\", \"name\": \"other\","))))
        .hasMessageStartingWith("body is not JSON: Duplicate Object property \"name\"");
    assertThatThrownBy(() -> handler.handle(bytes(valid + " {}")))
        .hasMessageStartingWith("body is not JSON: ");
  }

  @Test
  void theHandlerNeedsADriverName() {
    assertThatThrownBy(() -> AdmissionReviewHandler.of("", SharingConfig.scheme()))
        .hasMessage("driverName must not be empty");
  }

  private static byte[] bytes(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }
}
