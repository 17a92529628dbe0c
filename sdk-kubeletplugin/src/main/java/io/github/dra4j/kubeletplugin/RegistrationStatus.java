package io.github.dra4j.kubeletplugin;

/**
 * What the kubelet last reported about registering this plugin.
 *
 * @param registered true if the kubelet accepted the plugin and will call it
 * @param error the kubelet's reason when it did not (empty otherwise)
 */
public record RegistrationStatus(boolean registered, String error) {}
