/**
 * Where the plugin reads the ResourceClaims the kubelet names: one GET each with {@code
 * resource.k8s.io} version negotiation ({@link
 * io.github.dra4j.kubeletplugin.internal.claims.ApiServerClaimSource}), optionally in front of an
 * informer cache ({@link io.github.dra4j.kubeletplugin.internal.claims.CachedClaimSource}), and
 * the conversion of older versions to the v1 model drivers see. Internal: not API.
 */
package io.github.dra4j.kubeletplugin.internal.claims;
