package io.github.dra4j.resourceapi.internal.write;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;

/**
 * What the API server does with one kind on its write path, step by step: defaults, the create,
 * update and status strategies, validation and warnings. Each step works on the kind's {@code v1}
 * model object, changing it in place where it prepares it. Implementations are stateless.
 *
 * @param <T> the kind's {@code v1} model class
 */
interface KindRules<T extends HasMetadata> {

  /**
   * Returns the kind.
   *
   * @return e.g. {@code ResourceSlice}
   */
  String kind();

  /**
   * Returns the kind's {@code v1} model class.
   *
   * @return e.g. {@code io.fabric8.kubernetes.api.model.resource.v1.ResourceSlice}
   */
  Class<T> type();

  /**
   * Tells whether the kind has a {@code status} subresource.
   *
   * @return true for ResourceClaim and DeviceTaintRule
   */
  boolean hasStatus();

  /**
   * Applies the defaults of the version the object was sent in (done on every decode).
   *
   * @param object the object, changed in place
   * @param context the write's context
   */
  void defaults(T object, WriteContext context);

  /**
   * Runs the create strategy, then create validation.
   *
   * @param object the object, changed in place
   * @param context the write's context
   * @return the refused fields
   */
  List<FieldError> create(T object, WriteContext context);

  /**
   * Runs the update strategy, then update validation.
   *
   * @param object the new object, changed in place
   * @param old the stored object
   * @param context the write's context
   * @return the refused fields
   */
  List<FieldError> update(T object, T old, WriteContext context);

  /**
   * Runs the status strategy, then status validation.
   *
   * @param object the new object, changed in place
   * @param old the stored object
   * @param context the write's context
   * @return the refused fields
   * @throws IllegalArgumentException if the kind has no status
   */
  List<FieldError> updateStatus(T object, T old, WriteContext context);

  /**
   * Returns the warnings of a create.
   *
   * @param object the prepared object
   * @return the warning texts
   */
  List<String> warningsOnCreate(T object);

  /**
   * Returns the warnings of an update or status update.
   *
   * @param object the prepared object
   * @param old the stored object
   * @return the warning texts
   */
  List<String> warningsOnUpdate(T object, T old);
}
