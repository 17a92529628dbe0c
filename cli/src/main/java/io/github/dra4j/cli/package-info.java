/**
 * The dra4j command line, one executable jar ({@code java -jar cli/target/dra4j.jar}): {@code
 * demo} runs a sample driver through the whole DRA story on a simulated node, {@code cel} explains
 * which published devices a DeviceClass selector matches and why the others do not, {@code
 * apiserver} runs the in-memory API server as a process. An application: nothing depends on it.
 */
package io.github.dra4j.cli;
