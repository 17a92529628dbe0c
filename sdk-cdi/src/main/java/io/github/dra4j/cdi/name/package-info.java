/**
 * CDI names: the spec {@link io.github.dra4j.cdi.name.Kind} ({@code vendor/class}), the qualified
 * device name {@code vendor/class=name} a runtime resolves, the naming rules behind them, and the
 * legacy {@code cdi.k8s.io/} annotation keys.
 */
package io.github.dra4j.cdi.name;
