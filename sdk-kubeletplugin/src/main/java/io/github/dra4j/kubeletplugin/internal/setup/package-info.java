/**
 * The plugin's options as the builder gathered them ({@link
 * io.github.dra4j.kubeletplugin.internal.setup.PluginOptions}: the deployment's values and one
 * immutable group per part), and what is derived from them once at start ({@link
 * io.github.dra4j.kubeletplugin.internal.setup.PluginSetup}: socket paths, advertised services,
 * meter registries, the metadata writer). Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.setup;
