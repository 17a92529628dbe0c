/**
 * How text from outside the process (the kubelet, the API server, files) is put into log lines
 * and error messages: {@link io.github.dra4j.kubeletplugin.internal.logging.LogText}. Internal:
 * not API.
 */
package io.github.dra4j.kubeletplugin.internal.logging;
