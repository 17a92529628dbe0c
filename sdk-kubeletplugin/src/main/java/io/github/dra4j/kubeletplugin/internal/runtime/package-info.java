/**
 * What runs a started plugin: its servers ({@link
 * io.github.dra4j.kubeletplugin.internal.runtime.PluginServers}), the delivery of background
 * errors to the driver ({@link io.github.dra4j.kubeletplugin.internal.runtime.DriverEvents}) and
 * how it ends ({@link io.github.dra4j.kubeletplugin.internal.runtime.PluginShutdown}). Internal:
 * not API.
 */
package io.github.dra4j.kubeletplugin.internal.runtime;
