/**
 * End-to-end container tests of CDI edits: a real OCI runtime ({@code crun} or {@code runc})
 * starts a container from a claim's CDI specs, applied to an OCI {@code config.json} with the
 * SDK's own CDI code, and a small C program linked against a stub {@code libcuda.so.1} reports
 * which library the dynamic linker found and which GPUs it sees. {@link
 * io.github.dra4j.examples.gpu.container.CdiContainer} is the runner; the tests skip, with the
 * reason, on machines that cannot start containers.
 */
package io.github.dra4j.examples.gpu.container;
