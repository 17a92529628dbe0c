package io.github.dra4j.resourceapi.internal.write;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;
import java.util.function.BiConsumer;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * What the API server does with one kind on its write path, step by step: defaults, then the
 * create, update or status strategy followed by the matching validation, and the warnings. Each
 * step works on the kind's {@code v1} model object, changing it in place where it prepares it.
 * Immutable; the steps are stateless.
 *
 * @param kind e.g. {@code ResourceSlice}
 * @param type the kind's {@code v1} model class
 * @param defaults applies the defaults of the version the object was sent in
 * @param create runs the create strategy, then create validation
 * @param update runs the update strategy, then update validation
 * @param updateStatus runs the status strategy, then status validation; null if the kind has no
 *     status subresource
 * @param warningsOnCreate the warnings of a create
 * @param warningsOnUpdate the warnings of an update or status update
 * @param <T> the kind's {@code v1} model class
 */
record KindRules<T extends HasMetadata>(
    String kind,
    Class<T> type,
    BiConsumer<T, WriteContext> defaults,
    BiFunction<T, WriteContext, List<FieldError>> create,
    Update<T> update,
    Update<T> updateStatus,
    Function<T, List<String>> warningsOnCreate,
    BiFunction<T, T, List<String>> warningsOnUpdate) {

  /**
   * An update step: prepare the new object against the stored one, then validate it.
   *
   * @param <T> the model class
   */
  @FunctionalInterface
  interface Update<T> {
    /**
     * Runs the step.
     *
     * @param object the new object, changed in place
     * @param old the stored object
     * @param context the write's context
     * @return the refused fields
     */
    List<FieldError> apply(T object, T old, WriteContext context);
  }

  /**
   * Tells whether the kind has a {@code status} subresource.
   *
   * @return true for ResourceClaim and DeviceTaintRule
   */
  boolean hasStatus() {
    return updateStatus != null;
  }
}
