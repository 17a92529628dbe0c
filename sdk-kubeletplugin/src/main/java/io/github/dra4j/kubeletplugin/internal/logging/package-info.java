/**
 * How text from outside the process (the kubelet, the API server, files) is put into log lines
 * and error messages: {@link io.github.dra4j.kubeletplugin.internal.logging.LogText}; a failure
 * logged once where it happened ({@link
 * io.github.dra4j.kubeletplugin.internal.logging.LoggedFailure}); expected conditions as one line
 * ({@link io.github.dra4j.kubeletplugin.internal.logging.ErrorLog}). Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.logging;
