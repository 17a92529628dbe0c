package io.github.dra4j.resourceapi.internal.write;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimStatus;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.claim.ResourceClaimStatusValidation;
import io.github.dra4j.resourceapi.internal.claim.ResourceClaimTemplateValidation;
import io.github.dra4j.resourceapi.internal.claim.ResourceClaimValidation;
import io.github.dra4j.resourceapi.internal.defaults.ResourceDefaults;
import io.github.dra4j.resourceapi.internal.deviceclass.DeviceClassValidation;
import io.github.dra4j.resourceapi.internal.slice.ResourceSliceValidation;
import io.github.dra4j.resourceapi.internal.strategy.AdminAccessAuthorization;
import io.github.dra4j.resourceapi.internal.strategy.DeviceClassStrategy;
import io.github.dra4j.resourceapi.internal.strategy.DeviceTaintRuleStrategy;
import io.github.dra4j.resourceapi.internal.strategy.ResourceClaimStrategy;
import io.github.dra4j.resourceapi.internal.strategy.ResourceClaimTemplateStrategy;
import io.github.dra4j.resourceapi.internal.strategy.ResourceSliceStrategy;
import io.github.dra4j.resourceapi.internal.taintrule.DeviceTaintRuleValidation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The five kinds of {@code resource.k8s.io} and, for each, the order in which Kubernetes 1.36's
 * registry runs its strategy and validation ({@code pkg/registry/resource/<kind>/strategy.go}):
 * prepare, authorize admin access where the kind has requests, validate. Stateless.
 */
final class Kinds {

  private static final KindRules<ResourceSlice> SLICES = new KindRules<>(
      "ResourceSlice", ResourceSlice.class,
      (slice, context) -> ResourceDefaults.resourceSlice(slice, context.clock()),
      (slice, context) -> {
        ResourceSliceStrategy.prepareForCreate(slice, context.gates());
        return ResourceSliceValidation.validate(slice, context.gates());
      },
      (slice, old, context) -> {
        ResourceSliceStrategy.prepareForUpdate(slice, old, context.gates());
        return ResourceSliceValidation.validateUpdate(slice, old, context.gates());
      },
      null,
      ResourceSliceStrategy::warningsOnCreate,
      ResourceSliceStrategy::warningsOnUpdate);

  private static final KindRules<ResourceClaim> CLAIMS = new KindRules<>(
      "ResourceClaim", ResourceClaim.class,
      (claim, context) -> ResourceDefaults.resourceClaim(claim, context.sentApiVersion()),
      (claim, context) -> {
        ResourceClaimStrategy.prepareForCreate(claim, context.gates());
        return concat(adminAccess(claim.getSpec(), claim, context),
            ResourceClaimValidation.validate(claim, context.gates()));
      },
      (claim, old, context) -> {
        ResourceClaimStrategy.prepareForUpdate(claim, old, context.gates());
        return ResourceClaimValidation.validateUpdate(claim, old, context.gates());
      },
      (claim, old, context) -> {
        ResourceClaimStrategy.prepareForStatusUpdate(claim, old, context.gates());
        return concat(adminAccessOfStatus(claim, old, context),
            ResourceClaimStatusValidation.validateStatusUpdate(claim, old, context.gates()));
      },
      ResourceClaimStrategy::warningsOnCreate,
      ResourceClaimStrategy::warningsOnUpdate);

  private static final KindRules<ResourceClaimTemplate> TEMPLATES = new KindRules<>(
      "ResourceClaimTemplate", ResourceClaimTemplate.class,
      (template, context) -> ResourceDefaults.resourceClaimTemplate(template,
          context.sentApiVersion()),
      (template, context) -> {
        ResourceClaimTemplateStrategy.prepareForCreate(template, context.gates());
        ResourceClaimSpec spec = template.getSpec() == null ? null : template.getSpec().getSpec();
        return concat(adminAccess(spec, template, context),
            ResourceClaimTemplateValidation.validate(template, context.gates()));
      },
      (template, old, context) -> {
        ResourceClaimTemplateStrategy.prepareForUpdate(template, old, context.gates());
        return ResourceClaimTemplateValidation.validateUpdate(template, old, context.gates());
      },
      null,
      ResourceClaimTemplateStrategy::warningsOnCreate,
      ResourceClaimTemplateStrategy::warningsOnUpdate);

  private static final KindRules<DeviceClass> CLASSES = new KindRules<>(
      "DeviceClass", DeviceClass.class,
      (deviceClass, context) -> ResourceDefaults.deviceClass(deviceClass),
      (deviceClass, context) -> {
        DeviceClassStrategy.prepareForCreate(deviceClass, context.gates());
        return DeviceClassValidation.validate(deviceClass, context.gates());
      },
      (deviceClass, old, context) -> {
        DeviceClassStrategy.prepareForUpdate(deviceClass, old, context.gates());
        return DeviceClassValidation.validateUpdate(deviceClass, old, context.gates());
      },
      null,
      DeviceClassStrategy::warningsOnCreate,
      DeviceClassStrategy::warningsOnUpdate);

  private static final KindRules<DeviceTaintRule> TAINT_RULES = new KindRules<>(
      "DeviceTaintRule", DeviceTaintRule.class,
      (rule, context) -> ResourceDefaults.deviceTaintRule(rule, context.clock()),
      (rule, context) -> {
        DeviceTaintRuleStrategy.prepareForCreate(rule, context.gates());
        return DeviceTaintRuleValidation.validate(rule, context.gates());
      },
      (rule, old, context) -> {
        DeviceTaintRuleStrategy.prepareForUpdate(rule, old, context.gates(), context.clock());
        return DeviceTaintRuleValidation.validateUpdate(rule, old, context.gates());
      },
      (rule, old, context) -> {
        DeviceTaintRuleStrategy.prepareForStatusUpdate(rule, old, context.gates());
        return DeviceTaintRuleValidation.validateStatusUpdate(rule, old, context.gates());
      },
      DeviceTaintRuleStrategy::warningsOnCreate,
      DeviceTaintRuleStrategy::warningsOnUpdate);

  private static final Map<String, KindRules<?>> KINDS = Map.of(
      SLICES.kind(), SLICES, CLAIMS.kind(), CLAIMS, TEMPLATES.kind(), TEMPLATES,
      CLASSES.kind(), CLASSES, TAINT_RULES.kind(), TAINT_RULES);

  private Kinds() {}

  /**
   * Finds a kind's rules.
   *
   * @param kind e.g. {@code ResourceClaim}
   * @return the rules, or empty for a kind these rules do not cover
   */
  static Optional<KindRules<?>> of(String kind) {
    return Optional.ofNullable(KINDS.get(kind));
  }

  private static List<FieldError> concat(List<FieldError> first, List<FieldError> second) {
    List<FieldError> all = new ArrayList<>(first);
    all.addAll(second);
    return all;
  }

  /** AuthorizedForAdmin of a claim or template spec, when namespaces are known. */
  private static List<FieldError> adminAccess(ResourceClaimSpec spec, HasMetadata object,
      WriteContext context) {
    if (context.namespaceLabels() == null || spec == null || spec.getDevices() == null) {
      return List.of();
    }
    String namespace = object.getMetadata() == null ? null : object.getMetadata().getNamespace();
    return AdminAccessAuthorization.forRequests(spec.getDevices().getRequests(), namespace,
        context.namespaceLabels().apply(namespace));
  }

  /** AuthorizedForAdminStatus of a claim's status update, when namespaces are known. */
  private static List<FieldError> adminAccessOfStatus(ResourceClaim claim, ResourceClaim old,
      WriteContext context) {
    if (context.namespaceLabels() == null) {
      return List.of();
    }
    String namespace = claim.getMetadata().getNamespace();
    return AdminAccessAuthorization.forStatus(results(claim.getStatus()),
        results(old.getStatus()), namespace, context.namespaceLabels().apply(namespace));
  }

  private static List<DeviceRequestAllocationResult> results(ResourceClaimStatus status) {
    return status == null || status.getAllocation() == null
        || status.getAllocation().getDevices() == null ? null
            : status.getAllocation().getDevices().getResults();
  }
}
