/**
 * Threads dra4j starts: named daemon threads ({@link io.github.dra4j.core.thread.DaemonThreads}),
 * so thread dumps say whose they are and none keeps the JVM alive.
 */
package io.github.dra4j.core.thread;
