package io.github.dra4j.kubeletplugin.internal.grpc;

import io.grpc.MethodDescriptor;

/**
 * Serves a method under another service's name with the same messages.
 *
 * <p>The kubelet's health v1 and v1alpha1 services are byte-for-byte identical, and DRA v1beta1
 * is DRA v1 without one response field. Rather than implementing each twice, dra4j implements
 * the newest version and registers it again under the older service name. Stateless.
 */
public final class MethodAlias {

  private MethodAlias() {}

  /**
   * The same method under another service name.
   *
   * @param method a generated method descriptor
   * @param serviceName the fully qualified service name to serve it under
   * @param <Q> request type
   * @param <R> response type
   * @return a descriptor with the new full method name and the same marshallers
   */
  public static <Q, R> MethodDescriptor<Q, R> under(
      MethodDescriptor<Q, R> method, String serviceName) {
    return method.toBuilder()
        .setFullMethodName(
            MethodDescriptor.generateFullMethodName(serviceName, method.getBareMethodName()))
        .setSchemaDescriptor(null)
        .build();
  }
}
