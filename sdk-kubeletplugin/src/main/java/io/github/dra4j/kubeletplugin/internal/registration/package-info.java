/**
 * The kubelet's plugin registration service ({@code GetInfo}, {@code NotifyRegistrationStatus}).
 * Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.registration;
