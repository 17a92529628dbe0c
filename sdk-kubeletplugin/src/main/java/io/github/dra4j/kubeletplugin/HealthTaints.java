package io.github.dra4j.kubeletplugin;

import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaint;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceTaintBuilder;
import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.core.stability.KubernetesAlpha;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * Which taints a device's reported health puts on it in the driver's published ResourceSlices.
 * Turned on with {@link HealthOptions#taints()} (or {@link DraDriver#healthTaints()});
 * the plugin then keeps the driver's last {@link KubeletPlugin#publishResources published
 * resources} and publishes them again, with these taints added, whenever the health of a device
 * changes. A device whose health no longer asks for a taint loses it; taints the driver set on its
 * devices itself stay.
 *
 * <p>The usual policy is {@link #whenUnhealthy(TaintEffect)}: a device reported {@link
 * HealthState#UNHEALTHY} gets the taint {@code <driver name>/unhealthy=Unhealthy} with the chosen
 * effect. A driver that knows more (which error, how bad) returns its own taints; a taint's
 * {@code timeAdded} may be left unset: the API server sets it when the taint first appears, and
 * it is kept while the taint stays.
 *
 * <p>Called on the plugin's publishing thread with its publishing lock held, once per reported
 * device and publish: it must be fast and thread-safe, and must not publish resources itself.
 */
@FunctionalInterface
@KubernetesAlpha(feature = "DRADeviceTaints", since = "1.33", beta = "1.36")
public interface HealthTaints {

  /** The name part of the default taint key, {@code <driver name>/unhealthy}. */
  String DEFAULT_KEY_NAME = "unhealthy";

  /**
   * The taints a device gets for its current health.
   *
   * @param driverName the plugin's driver name, the usual domain of the taint keys
   * @param health the device's last reported health
   * @return its taints; empty for none (not null)
   */
  List<DeviceTaint> taints(String driverName, DeviceHealth health);

  /**
   * An unhealthy device gets the taint {@code <driver name>/unhealthy=Unhealthy} with the given
   * effect; healthy and unknown devices get none.
   *
   * @param effect what the taint does
   * @return the policy
   */
  static HealthTaints whenUnhealthy(TaintEffect effect) {
    Objects.requireNonNull(effect, "effect");
    return (driverName, health) -> unhealthyTaint(driverName + "/" + DEFAULT_KEY_NAME, effect,
        health);
  }

  /**
   * An unhealthy device gets the taint {@code <key>=Unhealthy} with the given effect; healthy and
   * unknown devices get none.
   *
   * @param key the taint key, a qualified name such as {@code gpu.example.com/unhealthy} (a
   *     label key: an optional DNS subdomain prefix and a slash, then up to 63 characters)
   * @param effect what the taint does
   * @return the policy
   * @throws IllegalArgumentException if the key is not a qualified name, naming it and why
   */
  static HealthTaints whenUnhealthy(String key, TaintEffect effect) {
    Objects.requireNonNull(effect, "effect");
    NameRules.labelKey(key == null ? "" : key).ifPresent(problem -> {
      throw new IllegalArgumentException(
          "health taint key \"" + key + "\" is not a qualified name: " + problem);
    });
    return (driverName, health) -> unhealthyTaint(key, effect, health);
  }

  /**
   * The value of a health taint: the state as the kubelet shows it.
   *
   * @param state the health
   * @return {@code Unhealthy}, {@code Healthy} or {@code Unknown}
   */
  static String value(HealthState state) {
    String name = state.name().toLowerCase(Locale.ROOT);
    return Character.toUpperCase(name.charAt(0)) + name.substring(1);
  }

  private static List<DeviceTaint> unhealthyTaint(String key, TaintEffect effect,
      DeviceHealth health) {
    if (health.state() != HealthState.UNHEALTHY) {
      return List.of();
    }
    return List.of(new DeviceTaintBuilder().withKey(key).withValue(value(health.state()))
        .withEffect(effect.apiValue()).build());
  }
}
