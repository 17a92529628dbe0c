/**
 * What a module that builds on the kubelet plugin uses of it, beyond a driver's API: the SDK's
 * claim lifecycle ({@code dra4j-lifecycle}) is the one user, and a driver that keeps its own claim
 * records may use it too.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.kubeletplugin.spi.ClaimLookup}: a claim read from the API server
 *       as the plugin reads it ({@link io.github.dra4j.kubeletplugin.PluginContext#claimLookup()});
 *   <li>{@link io.github.dra4j.kubeletplugin.spi.DirectoryChecks}: the checks of a directory the
 *       plugin or the driver writes to, before anything is written, with the plugin's settings
 *       named in the message;
 *   <li>{@link io.github.dra4j.kubeletplugin.spi.DefaultErrorLog}: how the plugin's default error
 *       handler logs, for a driver interface of its own with the same default.
 * </ul>
 *
 * <p>The exclusive lock of a file shared with other processes is {@link
 * io.github.dra4j.core.file.FileLocks} in {@code dra4j-core}; the MDC keys are {@link
 * io.github.dra4j.core.logging.MdcKeys}.
 */
package io.github.dra4j.kubeletplugin.spi;
