/**
 * The dra4j command line, one executable jar ({@code java -jar cli/target/dra4j.jar}): {@code
 * demo} runs a sample driver through the whole DRA story on a simulated node, {@code cel} explains
 * which published devices a DeviceClass selector matches and why the others do not, {@code
 * apiserver} runs the in-memory API server as a process, {@code explain} tells why a claim of a
 * cluster is not allocated or not prepared (also as {@code kubectl dra4j explain}). Every command exits 0 on success, 1 when
 * it failed and 2 for bad usage, reads {@code -} as standard input where it takes a file, and
 * answers {@code --version} with the version and git commit it was built from. An application:
 * nothing depends on it.
 */
package io.github.dra4j.cli;
