/**
 * The kubelet plugin's settings as picocli flags ({@link io.github.dra4j.picocli.PluginOptions}),
 * each defaulting to the environment variable of the same name, and a driver's {@code main} that
 * runs the DaemonSet's command line without loading picocli ({@link
 * io.github.dra4j.picocli.PicocliBypass}). A separate module, so drivers that do not use picocli
 * do not get it.
 */
package io.github.dra4j.picocli;
