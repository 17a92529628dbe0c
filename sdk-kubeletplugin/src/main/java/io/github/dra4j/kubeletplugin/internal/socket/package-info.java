/**
 * Unix sockets made safely: names by fixed rules (those of Go drivers), probing before replacing,
 * binding under a hidden name and renaming into place, and watching that they stay. Internal: not
 * API.
 */
package io.github.dra4j.kubeletplugin.internal.socket;
