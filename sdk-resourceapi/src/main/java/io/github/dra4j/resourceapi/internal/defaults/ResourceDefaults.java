package io.github.dra4j.resourceapi.internal.defaults;

import io.fabric8.kubernetes.api.model.resource.v1.AllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClass;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceRequestAllocationResult;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceSubRequest;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintRule;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceToleration;
import io.fabric8.kubernetes.api.model.resource.v1.ExactDeviceRequest;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Supplier;

/**
 * The defaults of {@code pkg/apis/resource/<version>/defaults.go} and the generated defaulters,
 * applied to {@code v1} objects IN PLACE (each method changes and returns nothing).
 *
 * <p>The server defaults the object in the version the client sent, before converting it. The
 * {@code v1} and {@code v1beta2} defaults are the same; {@code v1beta1} (and the former
 * {@code v1alpha3} claims) default a request's allocation mode and count only when the request
 * names a device class. Applied to a converted {@code v1beta1} object, that is exactly the {@code
 * v1} rule restricted to requests whose {@code exactly.deviceClassName} is set, which is what the
 * {@code apiVersion} parameters select. A {@code v1beta1} request with, e.g., only {@code count}
 * becomes an {@code exactly} without allocation mode on the server; the plain {@code v1} rule
 * would have defaulted it (and changed the errors).
 *
 * <p>Defaults run on every write (create, update, patch result), so a taint sent without {@code
 * timeAdded} on an update gets the current time, not the stored one.
 */
public final class ResourceDefaults {

  /** The API version whose request defaults only apply with a device class. */
  public static final String V1BETA1 = "resource.k8s.io/v1beta1";

  private static final String EXACT_COUNT = "ExactCount";
  private static final String EQUAL = "Equal";

  private ResourceDefaults() {}

  /**
   * Defaults a ResourceSlice: {@code timeAdded} of every device taint without one.
   *
   * @param slice the slice, changed in place
   * @param clock the server's clock; the time is truncated to seconds as the server does
   */
  public static void resourceSlice(ResourceSlice slice, Supplier<Instant> clock) {
    if (slice.getSpec() == null) {
      return;
    }
    for (var device : list(slice.getSpec().getDevices())) {
      for (DeviceTaint taint : list(device.getTaints())) {
        taint(taint, clock);
      }
    }
  }

  /**
   * Defaults a ResourceClaim sent as {@code v1} or {@code v1beta2}.
   *
   * @param claim the claim, changed in place
   * @see #resourceClaim(ResourceClaim, String)
   */
  public static void resourceClaim(ResourceClaim claim) {
    resourceClaim(claim, null);
  }

  /**
   * Defaults a ResourceClaim: each exact request and sub-request gets allocation mode {@code
   * ExactCount} and, in that mode, count 1; each toleration (requests, sub-requests, allocation
   * results) gets operator {@code Equal}.
   *
   * @param claim the claim, changed in place
   * @param sentApiVersion the version the client sent ({@code resource.k8s.io/v1beta1} restricts
   *     the request defaults to requests with a device class); null for {@code v1}
   */
  public static void resourceClaim(ResourceClaim claim, String sentApiVersion) {
    claimSpec(claim.getSpec(), sentApiVersion);
    if (claim.getStatus() == null) {
      return;
    }
    AllocationResult allocation = claim.getStatus().getAllocation();
    if (allocation != null && allocation.getDevices() != null) {
      for (DeviceRequestAllocationResult result : list(allocation.getDevices().getResults())) {
        tolerations(result.getTolerations());
      }
    }
  }

  /**
   * Defaults a ResourceClaimTemplate sent as {@code v1} or {@code v1beta2}.
   *
   * @param template the template, changed in place
   */
  public static void resourceClaimTemplate(ResourceClaimTemplate template) {
    resourceClaimTemplate(template, null);
  }

  /**
   * Defaults the claim spec of a ResourceClaimTemplate like a claim's.
   *
   * @param template the template, changed in place
   * @param sentApiVersion the version the client sent; null for {@code v1}
   */
  public static void resourceClaimTemplate(ResourceClaimTemplate template,
      String sentApiVersion) {
    if (template.getSpec() != null) {
      claimSpec(template.getSpec().getSpec(), sentApiVersion);
    }
  }

  /**
   * Defaults a DeviceClass: no version defines defaults for it, so nothing changes.
   *
   * @param deviceClass the class
   */
  public static void deviceClass(DeviceClass deviceClass) {
    // No defaults: there is no SetDefaults function for DeviceClass in any version.
  }

  /**
   * Defaults a DeviceTaintRule: {@code spec.taint.timeAdded} when unset ({@code v1alpha3} and
   * {@code v1beta2} alike).
   *
   * @param rule the rule, changed in place
   * @param clock the server's clock; the time is truncated to seconds
   */
  public static void deviceTaintRule(DeviceTaintRule rule, Supplier<Instant> clock) {
    if (rule.getSpec() != null && rule.getSpec().getTaint() != null) {
      taint(rule.getSpec().getTaint(), clock);
    }
  }

  /**
   * Formats a time as the server stores {@code metav1.Time}: RFC 3339 in UTC, whole seconds.
   *
   * @param time the time
   * @return e.g. {@code 2026-04-22T10:00:00Z}
   */
  public static String formatTime(Instant time) {
    return DateTimeFormatter.ISO_INSTANT.format(time.truncatedTo(ChronoUnit.SECONDS));
  }

  private static void taint(DeviceTaint taint, Supplier<Instant> clock) {
    if (taint.getTimeAdded() == null) {
      taint.setTimeAdded(formatTime(clock.get()));
    }
  }

  private static void claimSpec(ResourceClaimSpec spec, String sentApiVersion) {
    if (spec == null) {
      return;
    }
    DeviceClaim devices = spec.getDevices();
    if (devices == null) {
      return;
    }
    boolean onlyWithClass = V1BETA1.equals(sentApiVersion);
    for (DeviceRequest request : list(devices.getRequests())) {
      ExactDeviceRequest exactly = request.getExactly();
      if (exactly != null) {
        String className = exactly.getDeviceClassName();
        if (!onlyWithClass || (className != null && !className.isEmpty())) {
          if (isEmpty(exactly.getAllocationMode())) {
            exactly.setAllocationMode(EXACT_COUNT);
          }
          if (EXACT_COUNT.equals(exactly.getAllocationMode()) && isZero(exactly.getCount())) {
            exactly.setCount(1L);
          }
        }
        tolerations(exactly.getTolerations());
      }
      for (DeviceSubRequest sub : list(request.getFirstAvailable())) {
        if (isEmpty(sub.getAllocationMode())) {
          sub.setAllocationMode(EXACT_COUNT);
        }
        if (EXACT_COUNT.equals(sub.getAllocationMode()) && isZero(sub.getCount())) {
          sub.setCount(1L);
        }
        tolerations(sub.getTolerations());
      }
    }
  }

  private static void tolerations(List<DeviceToleration> tolerations) {
    for (DeviceToleration toleration : list(tolerations)) {
      if (isEmpty(toleration.getOperator())) {
        toleration.setOperator(EQUAL);
      }
    }
  }

  private static boolean isEmpty(String value) {
    return value == null || value.isEmpty();
  }

  private static boolean isZero(Long value) {
    return value == null || value == 0L;
  }

  private static <T> List<T> list(List<T> items) {
    return items == null ? List.of() : items;
  }
}
