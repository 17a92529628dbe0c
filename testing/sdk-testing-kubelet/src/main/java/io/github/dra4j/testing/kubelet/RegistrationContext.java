package io.github.dra4j.testing.kubelet;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledExecutorService;

/**
 * What every {@link PluginRegistration} of one fake kubelet shares. All parts are owned by the
 * {@link FakeKubelet}; registrations only borrow them.
 *
 * @param settings the kubelet's settings
 * @param channels opens channels to registration sockets
 * @param calls records the registration calls
 * @param instances where accepted instances go
 * @param timers schedules attempts and retries
 * @param workers runs attempts, which block for up to the dial, GetInfo and notify deadlines
 */
record RegistrationContext(
    KubeletSettings settings,
    UnixChannels channels,
    RecordedCalls calls,
    DriverInstances instances,
    ScheduledExecutorService timers,
    ExecutorService workers) {}
