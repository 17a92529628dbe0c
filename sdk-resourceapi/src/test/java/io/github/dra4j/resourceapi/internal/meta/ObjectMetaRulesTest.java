package io.github.dra4j.resourceapi.internal.meta;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules.NameFormat.DNS_SUBDOMAIN;
import static io.github.dra4j.resourceapi.internal.meta.ObjectMetaRules.NameFormat.LONG_NAME;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.util.List;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

/** Object metadata on create, on update and in templates, from Kubernetes' objectmeta tests. */
class ObjectMetaRulesTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final FieldPath M = FieldPath.root("metadata");

  @Test
  void validMetadataOfNamespacedAndClusterScopedKinds() {
    assertErrors(ObjectMetaRules.objectMeta(meta("{\"name\":\"claim-1\",\"namespace\":\"ns\","
        + "\"labels\":{\"app.kubernetes.io/name\":\"x\",\"empty\":\"\"},"
        + "\"annotations\":{\"Example.COM/Key\":\"anything at all\"},"
        + "\"finalizers\":[\"resource.kubernetes.io/delete-protection\",\"kubernetes\"],"
        + "\"ownerReferences\":[{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"name\":\"p\","
        + "\"uid\":\"u1\",\"controller\":true}],\"generation\":3,"
        + "\"managedFields\":[{\"manager\":\"kubectl\",\"operation\":\"Apply\","
        + "\"fieldsType\":\"FieldsV1\"}]}"), true, DNS_SUBDOMAIN, M));
    assertErrors(ObjectMetaRules.objectMeta(meta("{\"name\":\"gpu.example.com\"}"), false,
        LONG_NAME, M));
    assertErrors(ObjectMetaRules.objectMeta(meta("{\"name\":\"s-abcde\",\"generateName\":\"s-\"}"),
        false, DNS_SUBDOMAIN, M));
  }

  @Test
  void nameAndGenerateName() {
    assertThat(ObjectMetaRules.objectMeta(null, false, DNS_SUBDOMAIN, M)).singleElement()
        .hasToString("metadata.name: Required value: name or generateName is required");
    assertErrors(ObjectMetaRules.objectMeta(meta("{\"name\":\"Bad_Name\"}"), false,
        DNS_SUBDOMAIN, M), "Invalid metadata.name");
    assertErrors(ObjectMetaRules.objectMeta(meta("{\"name\":\"ok\",\"generateName\":\"Bad-\"}"),
        false, DNS_SUBDOMAIN, M), "Invalid metadata.generateName");
    assertThat(ObjectMetaRules.objectMeta(meta("{\"name\":\"" + "a".repeat(254) + "\"}"), false,
        DNS_SUBDOMAIN, M)).singleElement().hasToString("metadata.name: Invalid value: \""
            + "a".repeat(254) + "\": must be no more than 253 characters");
    assertThat(ObjectMetaRules.objectMeta(meta("{\"name\":\"" + "a".repeat(254) + "\"}"), false,
        LONG_NAME, M)).singleElement().hasToString("metadata.name: Invalid value: \""
            + "a".repeat(254) + "\": must be no more than 253 bytes");
    List<FieldError> generated = ObjectMetaRules.objectMeta(meta("{\"generateName\":\"gpu-\"}"),
        false, LONG_NAME, M);
    assertErrors(generated, "Internal metadata.name", "Required metadata.name");
    assertThat(generated.get(0)).hasToString("metadata.name: Internal error: generateName was"
        + " specified (\"gpu-\"), but no name was generated");
  }

  @Test
  void namespaceIsRequiredForNamespacedKindsAndForbiddenOtherwise() {
    assertThat(ObjectMetaRules.objectMeta(meta("{\"name\":\"a\"}"), true, DNS_SUBDOMAIN, M))
        .singleElement().hasToString("metadata.namespace: Required value");
    assertThat(ObjectMetaRules.objectMeta(meta("{\"name\":\"a\",\"namespace\":\"ns\"}"), false,
        DNS_SUBDOMAIN, M)).singleElement()
        .hasToString("metadata.namespace: Forbidden: not allowed on this type");
    assertThat(ObjectMetaRules.objectMeta(meta("{\"name\":\"a\",\"namespace\":\"a.b\"}"), true,
        DNS_SUBDOMAIN, M)).singleElement()
        .hasToString("metadata.namespace: Invalid value: \"a.b\": must not contain dots");
  }

  @Test
  void generationLabelsAndAnnotations() {
    assertThat(ObjectMetaRules.objectMeta(meta("{\"name\":\"a\",\"generation\":-1}"), false,
        DNS_SUBDOMAIN, M)).singleElement().hasToString("metadata.generation: Invalid value: -1:"
            + " must be greater than or equal to 0");
    assertErrors(ObjectMetaRules.objectMeta(meta("{\"name\":\"a\",\"labels\":{\"a/b/c\":\"x\","
        + "\"ok\":\"-bad\",\"k\":\"" + "v".repeat(64) + "\"}}"), false, DNS_SUBDOMAIN, M),
        "Invalid metadata.labels", "Invalid metadata.labels", "Invalid metadata.labels");
    assertErrors(ObjectMetaRules.objectMeta(meta("{\"name\":\"a\",\"annotations\":{"
        + "\"a b\":\"x\",\"-x\":\"y\"}}"), false, DNS_SUBDOMAIN, M),
        "Invalid metadata.annotations", "Invalid metadata.annotations");
    assertThat(ObjectMetaRules.objectMeta(meta("{\"name\":\"a\",\"annotations\":{\"k\":\""
        + "x".repeat(256 * 1024) + "\"}}"), false, DNS_SUBDOMAIN, M)).singleElement()
        .hasToString("metadata.annotations: Too long: may not be more than 262144 bytes");
    assertErrors(ObjectMetaRules.objectMeta(meta("{\"name\":\"a\",\"annotations\":{\"k\":\""
        + "x".repeat(256 * 1024 - 1) + "\"}}"), false, DNS_SUBDOMAIN, M));
  }

  @Test
  void ownerReferences() {
    FieldPath o = M.child("ownerReferences");
    List<FieldError> errors = ObjectMetaRules.objectMeta(meta("{\"name\":\"a\","
        + "\"ownerReferences\":[{\"apiVersion\":\"\",\"kind\":\"\"},"
        + "{\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\","
        + "\"uid\":\"u\"},{\"apiVersion\":\"apps/v1\",\"kind\":\"Deployment\",\"name\":\"d\","
        + "\"uid\":\"u2\",\"controller\":true},{\"apiVersion\":\"v1\",\"kind\":\"Pod\","
        + "\"name\":\"p\",\"uid\":\"u3\",\"controller\":true}]}"), false, DNS_SUBDOMAIN, M);
    assertErrors(errors, "Invalid " + o + ".apiVersion", "Invalid " + o + ".kind",
        "Invalid " + o + ".name", "Invalid " + o + ".uid", "Invalid " + o, "Invalid " + o);
    assertThat(errors).extracting(FieldError::toString).contains(
        o + ".apiVersion: Invalid value: \"\": version must not be empty",
        o + ".uid: Invalid value: \"\": must not be empty",
        o + ": Invalid value: {\"apiVersion\":\"v1\",\"kind\":\"Event\",\"name\":\"e\","
            + "\"uid\":\"u\"}: /v1, Kind=Event is disallowed from being an owner");
    assertThat(errors.get(errors.size() - 1).detail()).isEqualTo("Only one reference can have"
        + " Controller set to true. Found \"true\" in references for Deployment/d and Pod/p");
  }

  @Test
  void finalizersAndManagedFields() {
    List<FieldError> errors = ObjectMetaRules.objectMeta(meta("{\"name\":\"a\",\"finalizers\":["
        + "\"foo\",\"a/b/c\",\"orphan\",\"foregroundDeletion\",\"example.com/x\"]}"), false,
        DNS_SUBDOMAIN, M);
    assertErrors(errors, "Invalid metadata.finalizers", "Invalid metadata.finalizers",
        "Invalid metadata.finalizers[0]");
    assertThat(errors).extracting(FieldError::toString).contains(
        "metadata.finalizers: Invalid value: [\"foo\",\"a/b/c\",\"orphan\","
            + "\"foregroundDeletion\",\"example.com/x\"]: finalizer orphan and foregroundDeletion"
            + " cannot be both set",
        "metadata.finalizers[0]: Invalid value: \"foo\": name is neither a standard finalizer"
            + " name nor is it fully qualified");
    List<FieldError> managed = ObjectMetaRules.objectMeta(meta("{\"name\":\"a\","
        + "\"managedFields\":[{\"operation\":\"Patch\",\"fieldsType\":\"FieldsV2\","
        + "\"manager\":\"a\\u0007b\",\"subresource\":\"" + "s".repeat(257) + "\"},"
        + "{\"operation\":\"Update\",\"manager\":\"" + "m".repeat(129) + "\"}]}"), false,
        DNS_SUBDOMAIN, M);
    FieldPath f = M.child("managedFields");
    assertErrors(managed, "Invalid " + f.index(0).child("operation"),
        "Invalid " + f.index(0).child("fieldsType"), "Invalid " + f.index(0).child("manager"),
        "TooLong " + f.index(0).child("subresource"), "TooLong " + f.index(1).child("manager"));
    assertThat(managed).extracting(FieldError::toString).contains(
        "metadata.managedFields[0].operation: Invalid value: \"Patch\": must be `Apply` or"
            + " `Update`",
        "metadata.managedFields[0].manager: Invalid value: \"a\\ab\": invalid character U+0007"
            + " (at position 1)");
  }

  @Test
  void updatesKeepIdentityAndTimestamps() {
    ObjectMeta old = meta("{\"name\":\"a\",\"namespace\":\"ns\",\"uid\":\"u1\","
        + "\"resourceVersion\":\"5\",\"generation\":2,"
        + "\"creationTimestamp\":\"2026-01-02T03:04:05Z\"}");
    assertErrors(ObjectMetaRules.objectMetaUpdate(meta("{\"name\":\"a\",\"namespace\":\"ns\","
        + "\"uid\":\"u1\",\"resourceVersion\":\"5\",\"generation\":3,"
        + "\"creationTimestamp\":\"2026-01-02T04:04:05+01:00\",\"labels\":{\"new\":\"v\"}}"),
        old, M));
    List<FieldError> errors = ObjectMetaRules.objectMetaUpdate(meta("{\"name\":\"b\","
        + "\"namespace\":\"other\",\"uid\":\"u2\",\"generation\":1,"
        + "\"creationTimestamp\":\"2026-01-03T00:00:00Z\",\"deletionGracePeriodSeconds\":30,"
        + "\"finalizers\":[\"bad\"]}"), old, M);
    assertErrors(errors, "Invalid metadata.resourceVersion", "Invalid metadata.generation",
        "Invalid metadata.name", "Invalid metadata.namespace", "Invalid metadata.uid",
        "Invalid metadata.creationTimestamp", "Invalid metadata.deletionGracePeriodSeconds",
        "Invalid metadata.finalizers[0]");
    assertThat(errors).extracting(FieldError::toString).contains(
        "metadata.resourceVersion: Invalid value: \"\": must be specified for an update",
        "metadata.generation: Invalid value: 1: must not be decremented",
        "metadata.name: Invalid value: \"b\": field is immutable",
        "metadata.creationTimestamp: Invalid value: \"2026-01-03T00:00:00Z\": field is immutable",
        "metadata.deletionGracePeriodSeconds: Invalid value: 30: field is immutable");
  }

  @Test
  void noNewFinalizersWhileDeleting() {
    ObjectMeta old = meta("{\"name\":\"a\",\"resourceVersion\":\"1\",\"finalizers\":[\"x/a\"],"
        + "\"deletionTimestamp\":\"2026-01-02T03:04:05Z\",\"deletionGracePeriodSeconds\":0}");
    assertThat(ObjectMetaRules.objectMetaUpdate(meta("{\"name\":\"a\",\"resourceVersion\":\"2\","
        + "\"finalizers\":[\"x/c\",\"x/a\",\"x/b\"],\"deletionTimestamp\":\"2026-01-02T03:04:05Z\","
        + "\"deletionGracePeriodSeconds\":0}"), old, M)).singleElement()
        .hasToString("metadata.finalizers: Forbidden: no new finalizers can be added if the"
            + " object is being deleted, found new finalizers []string{\"x/b\", \"x/c\"}");
    assertThat(ObjectMetaRules.objectMetaUpdate(meta("{\"name\":\"a\",\"resourceVersion\":\"2\","
        + "\"deletionGracePeriodSeconds\":0}"), old, M)).singleElement()
        .hasToString("metadata.deletionTimestamp: Invalid value: null: field is immutable");
  }

  @Test
  void templateMetadataTakesOnlyLabelsAndAnnotations() {
    FieldPath t = FieldPath.root("spec", "metadata");
    assertErrors(ObjectMetaRules.templateObjectMeta(null, t));
    assertErrors(ObjectMetaRules.templateObjectMeta(meta("{\"labels\":{\"a\":\"b\"},"
        + "\"annotations\":{\"c\":\"d\"}}"), t));
    List<FieldError> errors = ObjectMetaRules.templateObjectMeta(meta("{\"name\":\"n\","
        + "\"namespace\":\"ns\",\"uid\":\"u\",\"generation\":1,\"finalizers\":[\"a/b\"],"
        + "\"deletionGracePeriodSeconds\":0,\"labels\":{\"-bad\":\"x\"}}"), t);
    assertErrors(errors, "Invalid spec.metadata.labels", "Forbidden spec.metadata.name",
        "Forbidden spec.metadata.namespace", "Forbidden spec.metadata.uID",
        "Forbidden spec.metadata.generation", "Forbidden spec.metadata.deletionGracePeriodSeconds",
        "Forbidden spec.metadata.finalizers");
    assertThat(errors.get(1)).hasToString("spec.metadata.name: Forbidden: cannot be set");
  }

  private static ObjectMeta meta(String json) {
    return JSON.readValue(json, ObjectMeta.class);
  }
}
