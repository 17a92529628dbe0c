package io.github.dra4j.resourceapi.internal.strategy;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateSpec;
import io.github.dra4j.resourceapi.FeatureGates;
import java.util.List;

/**
 * {@code pkg/registry/resource/resourceclaimtemplate/strategy.go} (Kubernetes 1.36). Namespaced,
 * no status. Objects are changed in place. The strategy does not touch the generation: a new
 * template keeps whatever generation the client sent, an update keeps the stored one.
 *
 * <p>Validation: create {@code AuthorizedForAdmin} (see {@link AdminAccessAuthorization}) then
 * {@code ValidateResourceClaimTemplate}; update {@code ValidateResourceClaimTemplate} of the new
 * template plus {@code ValidateResourceClaimTemplateUpdate}.
 */
public final class ResourceClaimTemplateStrategy {

  private ResourceClaimTemplateStrategy() {}

  /**
   * Prepares a new template: the disabled fields of its claim spec dropped.
   *
   * @param template the template, changed in place
   * @param gates the server's gates
   */
  public static void prepareForCreate(ResourceClaimTemplate template, FeatureGates gates) {
    ClaimSpecFields.dropDisabled(claimSpec(template), null, gates);
  }

  /**
   * Prepares an update: the disabled fields of the claim spec dropped unless the stored template
   * uses them. The generation stays the stored one.
   *
   * @param template the new template, changed in place
   * @param old the stored template
   * @param gates the server's gates
   */
  public static void prepareForUpdate(ResourceClaimTemplate template, ResourceClaimTemplate old,
      FeatureGates gates) {
    ClaimSpecFields.dropDisabled(claimSpec(template), claimSpec(old), gates);
  }

  /**
   * Returns the warnings of a create: none.
   *
   * @param template the template
   * @return an empty list
   */
  public static List<String> warningsOnCreate(ResourceClaimTemplate template) {
    return List.of();
  }

  /**
   * Returns the warnings of an update: none.
   *
   * @param template the new template
   * @param old the stored template
   * @return an empty list
   */
  public static List<String> warningsOnUpdate(ResourceClaimTemplate template,
      ResourceClaimTemplate old) {
    return List.of();
  }

  private static ResourceClaimSpec claimSpec(ResourceClaimTemplate template) {
    ResourceClaimTemplateSpec spec = template == null ? null : template.getSpec();
    return spec == null ? null : spec.getSpec();
  }
}
