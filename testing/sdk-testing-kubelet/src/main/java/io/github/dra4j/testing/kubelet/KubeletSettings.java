package io.github.dra4j.testing.kubelet;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

/**
 * The resolved configuration of one fake kubelet; see {@link FakeKubeletBuilder} for meanings and
 * defaults. Immutable (the client is borrowed, not owned).
 */
record KubeletSettings(
    Path registryDirectory,
    String nodeName,
    KubernetesClient kubeClient,
    Duration dialTimeout,
    Duration getInfoTimeout,
    Duration notifyTimeout,
    Duration callTimeout,
    Backoff registrationBackoff,
    Duration wipingDelay,
    boolean wipeOnStart,
    boolean healthStreams,
    Duration healthRetryPeriod,
    Duration healthTimeout,
    int callLogCapacity,
    Clock clock) {}
