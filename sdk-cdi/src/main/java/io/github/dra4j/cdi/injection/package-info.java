/**
 * What a container sees: a small model of the OCI runtime spec parts CDI edits ({@link
 * io.github.dra4j.cdi.injection.OciContainer}, written as runtime-spec JSON by {@link
 * io.github.dra4j.cdi.injection.OciContainer#toOciJson()}) and the runtime's rules for applying
 * container edits to it ({@link io.github.dra4j.cdi.injection.ContainerEditor}), including device
 * node completion from the host.
 */
package io.github.dra4j.cdi.injection;
