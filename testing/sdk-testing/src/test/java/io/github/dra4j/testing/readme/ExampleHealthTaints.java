package io.github.dra4j.testing.readme;

import io.github.dra4j.kubeletplugin.DeviceHealth;
import io.github.dra4j.kubeletplugin.HealthTaints;
import io.github.dra4j.kubeletplugin.KubeletPlugin;
import io.github.dra4j.kubeletplugin.KubeletPluginBuilder;
import io.github.dra4j.kubeletplugin.TaintEffect;
import io.github.dra4j.resourceslice.DriverResources;

/** The README's health taints, compiled (the SDK's HealthTaintsTest runs the same steps). */
// README:begin health
public final class ExampleHealthTaints {
  static KubeletPlugin start(KubeletPluginBuilder builder, DriverResources devices) {
    KubeletPlugin plugin = builder
        .health(h -> h.withTaints(HealthTaints.whenUnhealthy(TaintEffect.NO_SCHEDULE)))
        .start();
    plugin.publishResources(devices); // once: the plugin keeps it
    plugin.deviceHealth().report(DeviceHealth.unhealthy(plugin.nodeName(), "gpu-1", "XID 79"));
    // gpu-1 is published again with gpu.example.com/unhealthy=Unhealthy:NoSchedule;
    // reported healthy again, it loses the taint
    return plugin;
  }
}
// README:end
