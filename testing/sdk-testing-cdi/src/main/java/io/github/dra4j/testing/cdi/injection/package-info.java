/**
 * What a container sees, for tests: a small model of the OCI runtime spec parts CDI edits ({@link
 * io.github.dra4j.testing.cdi.injection.OciContainer}, written as runtime-spec JSON by {@link
 * io.github.dra4j.testing.cdi.injection.OciContainer#toOciJson()}) and a container runtime's rules
 * for applying container edits to it ({@link
 * io.github.dra4j.testing.cdi.injection.ContainerEditor}), including device node completion from
 * the host.
 */
package io.github.dra4j.testing.cdi.injection;
