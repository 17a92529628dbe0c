package io.github.dra4j.resourceapi.internal.strategy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.LinkedHashMap;

/**
 * The metadata handling the generic registry does around a strategy: {@code rest.BeforeUpdate}
 * (generation taken from the stored object, UID, creation and deletion fields kept) and {@code
 * metav1.ResetObjectMetaForStatus} (what a status update may not change).
 */
public final class MetaUpdates {

  private MetaUpdates() {}

  /**
   * Does what {@code rest.BeforeUpdate} does to the metadata before the strategy runs: the
   * generation is the stored one (clients cannot set it), an empty UID takes the stored one, the
   * creation timestamp, a set deletion timestamp and a set deletion grace period cannot change.
   *
   * @param object the new object, changed in place
   * @param old the stored object
   */
  public static void keepServerFields(HasMetadata object, HasMetadata old) {
    ObjectMeta meta = meta(object);
    ObjectMeta oldMeta = meta(old);
    meta.setGeneration(oldMeta.getGeneration());
    if (meta.getUid() == null || meta.getUid().isEmpty()) {
      meta.setUid(oldMeta.getUid());
    }
    if (oldMeta.getCreationTimestamp() != null) {
      meta.setCreationTimestamp(oldMeta.getCreationTimestamp());
    }
    if (oldMeta.getDeletionTimestamp() != null) {
      meta.setDeletionTimestamp(oldMeta.getDeletionTimestamp());
    }
    if (oldMeta.getDeletionGracePeriodSeconds() != null
        && meta.getDeletionGracePeriodSeconds() == null) {
      meta.setDeletionGracePeriodSeconds(oldMeta.getDeletionGracePeriodSeconds());
    }
  }

  /**
   * Does what {@code metav1.ResetObjectMetaForStatus} does: a status update keeps the stored
   * deletion timestamp, generation, self link, labels, annotations, finalizers and owner
   * references (managed fields are kept from the request).
   *
   * @param object the new object, changed in place
   * @param old the stored object
   */
  public static void resetForStatus(HasMetadata object, HasMetadata old) {
    ObjectMeta meta = meta(object);
    ObjectMeta oldMeta = meta(old);
    meta.setDeletionTimestamp(oldMeta.getDeletionTimestamp());
    meta.setGeneration(oldMeta.getGeneration());
    meta.setSelfLink(oldMeta.getSelfLink());
    meta.setLabels(oldMeta.getLabels() == null ? null : new LinkedHashMap<>(oldMeta.getLabels()));
    meta.setAnnotations(
        oldMeta.getAnnotations() == null ? null : new LinkedHashMap<>(oldMeta.getAnnotations()));
    meta.setFinalizers(
        oldMeta.getFinalizers() == null ? null : new ArrayList<>(oldMeta.getFinalizers()));
    meta.setOwnerReferences(oldMeta.getOwnerReferences() == null ? null
        : new ArrayList<>(oldMeta.getOwnerReferences()));
  }

  /**
   * Sets the generation of a new object to 1.
   *
   * @param object the object, changed in place
   */
  static void firstGeneration(HasMetadata object) {
    meta(object).setGeneration(1L);
  }

  /**
   * Keeps the stored generation, or increments it when the spec changed.
   *
   * @param object the new object, changed in place
   * @param old the stored object
   * @param specChanged whether the spec differs semantically
   */
  static void nextGeneration(HasMetadata object, HasMetadata old, boolean specChanged) {
    Long oldGeneration = meta(old).getGeneration();
    long base = oldGeneration == null ? 0L : oldGeneration;
    meta(object).setGeneration(specChanged ? base + 1 : oldGeneration);
  }

  private static ObjectMeta meta(HasMetadata object) {
    if (object.getMetadata() == null) {
      object.setMetadata(new ObjectMeta());
    }
    return object.getMetadata();
  }
}
