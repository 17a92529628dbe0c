/**
 * Unix sockets made safely: names as the Go helper chooses them, probing before replacing, binding
 * under a hidden name and renaming into place, and watching that they stay. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.socket;
