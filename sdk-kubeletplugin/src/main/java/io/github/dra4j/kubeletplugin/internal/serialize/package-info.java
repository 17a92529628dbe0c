/**
 * Serialization of prepare and unprepare calls: none, an in-process lock, or a lock file shared by
 * the two driver pods of a rolling update. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.serialize;
