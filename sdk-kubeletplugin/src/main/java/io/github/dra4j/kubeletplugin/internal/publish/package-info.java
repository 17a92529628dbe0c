/** The state of a plugin's ResourceSlice publishing: readiness, log lines and Node Events. */
package io.github.dra4j.kubeletplugin.internal.publish;
