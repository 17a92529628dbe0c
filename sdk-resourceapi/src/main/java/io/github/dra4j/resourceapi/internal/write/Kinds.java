package io.github.dra4j.resourceapi.internal.write;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
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

  private static final Map<String, KindRules<?>> KINDS = Map.of(
      "ResourceSlice", new Slices(),
      "ResourceClaim", new Claims(),
      "ResourceClaimTemplate", new Templates(),
      "DeviceClass", new Classes(),
      "DeviceTaintRule", new TaintRules());

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

  /** A kind without a status subresource. */
  private abstract static class NoStatus<T extends HasMetadata> implements KindRules<T> {

    @Override
    public boolean hasStatus() {
      return false;
    }

    @Override
    public List<FieldError> updateStatus(T object, T old, WriteContext context) {
      throw new IllegalArgumentException(kind() + " has no status subresource");
    }
  }

  private static final class Slices extends NoStatus<ResourceSlice> {
    public String kind() {
      return "ResourceSlice";
    }

    public Class<ResourceSlice> type() {
      return ResourceSlice.class;
    }

    public void defaults(ResourceSlice slice, WriteContext context) {
      ResourceDefaults.resourceSlice(slice, context.clock());
    }

    public List<FieldError> create(ResourceSlice slice, WriteContext context) {
      ResourceSliceStrategy.prepareForCreate(slice, context.gates());
      return ResourceSliceValidation.validate(slice, context.gates());
    }

    public List<FieldError> update(ResourceSlice slice, ResourceSlice old, WriteContext context) {
      ResourceSliceStrategy.prepareForUpdate(slice, old, context.gates());
      return ResourceSliceValidation.validateUpdate(slice, old, context.gates());
    }

    public List<String> warningsOnCreate(ResourceSlice slice) {
      return ResourceSliceStrategy.warningsOnCreate(slice);
    }

    public List<String> warningsOnUpdate(ResourceSlice slice, ResourceSlice old) {
      return ResourceSliceStrategy.warningsOnUpdate(slice, old);
    }
  }

  private static final class Claims implements KindRules<ResourceClaim> {
    public String kind() {
      return "ResourceClaim";
    }

    public Class<ResourceClaim> type() {
      return ResourceClaim.class;
    }

    public boolean hasStatus() {
      return true;
    }

    public void defaults(ResourceClaim claim, WriteContext context) {
      ResourceDefaults.resourceClaim(claim, context.sentApiVersion());
    }

    public List<FieldError> create(ResourceClaim claim, WriteContext context) {
      ResourceClaimStrategy.prepareForCreate(claim, context.gates());
      return concat(adminAccess(claim.getSpec(), claim, context),
          ResourceClaimValidation.validate(claim, context.gates()));
    }

    public List<FieldError> update(ResourceClaim claim, ResourceClaim old, WriteContext context) {
      ResourceClaimStrategy.prepareForUpdate(claim, old, context.gates());
      return ResourceClaimValidation.validateUpdate(claim, old, context.gates());
    }

    public List<FieldError> updateStatus(ResourceClaim claim, ResourceClaim old,
        WriteContext context) {
      ResourceClaimStrategy.prepareForStatusUpdate(claim, old, context.gates());
      List<FieldError> admin = context.namespaceLabels() == null ? List.of()
          : AdminAccessAuthorization.forStatus(results(claim.getStatus()),
              results(old.getStatus()), claim.getMetadata().getNamespace(),
              context.namespaceLabels().apply(claim.getMetadata().getNamespace()));
      return concat(admin,
          ResourceClaimStatusValidation.validateStatusUpdate(claim, old, context.gates()));
    }

    public List<String> warningsOnCreate(ResourceClaim claim) {
      return ResourceClaimStrategy.warningsOnCreate(claim);
    }

    public List<String> warningsOnUpdate(ResourceClaim claim, ResourceClaim old) {
      return ResourceClaimStrategy.warningsOnUpdate(claim, old);
    }

    private static List<DeviceRequestAllocationResult> results(ResourceClaimStatus status) {
      return status == null || status.getAllocation() == null
          || status.getAllocation().getDevices() == null ? null
          : status.getAllocation().getDevices().getResults();
    }
  }

  private static final class Templates extends NoStatus<ResourceClaimTemplate> {
    public String kind() {
      return "ResourceClaimTemplate";
    }

    public Class<ResourceClaimTemplate> type() {
      return ResourceClaimTemplate.class;
    }

    public void defaults(ResourceClaimTemplate template, WriteContext context) {
      ResourceDefaults.resourceClaimTemplate(template, context.sentApiVersion());
    }

    public List<FieldError> create(ResourceClaimTemplate template, WriteContext context) {
      ResourceClaimTemplateStrategy.prepareForCreate(template, context.gates());
      ResourceClaimSpec spec = template.getSpec() == null ? null : template.getSpec().getSpec();
      return concat(adminAccess(spec, template, context),
          ResourceClaimTemplateValidation.validate(template, context.gates()));
    }

    public List<FieldError> update(ResourceClaimTemplate template, ResourceClaimTemplate old,
        WriteContext context) {
      ResourceClaimTemplateStrategy.prepareForUpdate(template, old, context.gates());
      return ResourceClaimTemplateValidation.validateUpdate(template, old, context.gates());
    }

    public List<String> warningsOnCreate(ResourceClaimTemplate template) {
      return ResourceClaimTemplateStrategy.warningsOnCreate(template);
    }

    public List<String> warningsOnUpdate(ResourceClaimTemplate template,
        ResourceClaimTemplate old) {
      return ResourceClaimTemplateStrategy.warningsOnUpdate(template, old);
    }
  }

  private static final class Classes extends NoStatus<DeviceClass> {
    public String kind() {
      return "DeviceClass";
    }

    public Class<DeviceClass> type() {
      return DeviceClass.class;
    }

    public void defaults(DeviceClass deviceClass, WriteContext context) {
      ResourceDefaults.deviceClass(deviceClass);
    }

    public List<FieldError> create(DeviceClass deviceClass, WriteContext context) {
      DeviceClassStrategy.prepareForCreate(deviceClass, context.gates());
      return DeviceClassValidation.validate(deviceClass, context.gates());
    }

    public List<FieldError> update(DeviceClass deviceClass, DeviceClass old,
        WriteContext context) {
      DeviceClassStrategy.prepareForUpdate(deviceClass, old, context.gates());
      return DeviceClassValidation.validateUpdate(deviceClass, old, context.gates());
    }

    public List<String> warningsOnCreate(DeviceClass deviceClass) {
      return DeviceClassStrategy.warningsOnCreate(deviceClass);
    }

    public List<String> warningsOnUpdate(DeviceClass deviceClass, DeviceClass old) {
      return DeviceClassStrategy.warningsOnUpdate(deviceClass, old);
    }
  }

  private static final class TaintRules implements KindRules<DeviceTaintRule> {
    public String kind() {
      return "DeviceTaintRule";
    }

    public Class<DeviceTaintRule> type() {
      return DeviceTaintRule.class;
    }

    public boolean hasStatus() {
      return true;
    }

    public void defaults(DeviceTaintRule rule, WriteContext context) {
      ResourceDefaults.deviceTaintRule(rule, context.clock());
    }

    public List<FieldError> create(DeviceTaintRule rule, WriteContext context) {
      DeviceTaintRuleStrategy.prepareForCreate(rule, context.gates());
      return DeviceTaintRuleValidation.validate(rule, context.gates());
    }

    public List<FieldError> update(DeviceTaintRule rule, DeviceTaintRule old,
        WriteContext context) {
      DeviceTaintRuleStrategy.prepareForUpdate(rule, old, context.gates(), context.clock());
      return DeviceTaintRuleValidation.validateUpdate(rule, old, context.gates());
    }

    public List<FieldError> updateStatus(DeviceTaintRule rule, DeviceTaintRule old,
        WriteContext context) {
      DeviceTaintRuleStrategy.prepareForStatusUpdate(rule, old, context.gates());
      return DeviceTaintRuleValidation.validateStatusUpdate(rule, old, context.gates());
    }

    public List<String> warningsOnCreate(DeviceTaintRule rule) {
      return DeviceTaintRuleStrategy.warningsOnCreate(rule);
    }

    public List<String> warningsOnUpdate(DeviceTaintRule rule, DeviceTaintRule old) {
      return DeviceTaintRuleStrategy.warningsOnUpdate(rule, old);
    }
  }

  /** AuthorizedForAdmin of a claim or template spec, when namespaces are known. */
  private static List<FieldError> adminAccess(ResourceClaimSpec spec, HasMetadata object,
      WriteContext context) {
    if (context.namespaceLabels() == null || spec == null || spec.getDevices() == null) {
      return List.of();
    }
    List<DeviceRequest> requests = spec.getDevices().getRequests();
    String namespace = object.getMetadata() == null ? null : object.getMetadata().getNamespace();
    return AdminAccessAuthorization.forRequests(requests, namespace,
        context.namespaceLabels().apply(namespace));
  }
}
