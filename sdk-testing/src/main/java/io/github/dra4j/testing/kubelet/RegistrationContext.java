package io.github.dra4j.testing.kubelet;

import java.util.concurrent.ScheduledExecutorService;

/**
 * What every {@link PluginRegistration} of one fake kubelet shares. All parts are owned by the
 * {@link FakeKubelet}; registrations only borrow them.
 *
 * @param settings the kubelet's settings
 * @param channels opens channels to registration sockets
 * @param calls records the registration calls
 * @param instances where accepted instances go
 * @param timers runs attempts and retries
 */
record RegistrationContext(
    KubeletSettings settings,
    UnixChannels channels,
    RecordedCalls calls,
    DriverInstances instances,
    ScheduledExecutorService timers) {}
