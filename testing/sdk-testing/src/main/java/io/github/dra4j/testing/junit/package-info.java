/**
 * The {@code @DraTest} JUnit Jupiter (JUnit 6) extension ({@link
 * io.github.dra4j.testing.junit.DraTest}): starts a driver on a fresh {@link
 * io.github.dra4j.testing.node.SimulatedNode} for each test and injects the node, as Java
 * Operator SDK's extensions inject an operator's environment. A driver is described once by a
 * {@link io.github.dra4j.testing.junit.DriverUnderTest}.
 */
package io.github.dra4j.testing.junit;
