/**
 * GPU sharing as applied on the node: {@link io.github.dra4j.examples.gpu.sharing.SharingSetting}
 * and the {@link io.github.dra4j.examples.gpu.sharing.SharingCommands} that apply it.
 */
package io.github.dra4j.examples.gpu.sharing;
