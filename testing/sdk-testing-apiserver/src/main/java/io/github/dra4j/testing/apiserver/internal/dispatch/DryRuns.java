package io.github.dra4j.testing.apiserver.internal.dispatch;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import tools.jackson.databind.node.ObjectNode;

/**
 * The answer to a {@code dryRun=All} create: the object as it would be stored, with the fields the
 * server sets on every create ({@code uid}, {@code creationTimestamp}) but no {@code
 * resourceVersion}, since nothing was stored. Stateless.
 */
final class DryRuns {

  private DryRuns() {}

  /**
   * Completes the object a dry-run create answers with.
   *
   * @param admitted the object as it would be stored, changed in place
   * @return the same object
   */
  static ObjectNode created(ObjectNode admitted) {
    ObjectNode metadata = admitted.withObjectProperty("metadata");
    metadata.put("uid", UUID.randomUUID().toString());
    metadata.put("creationTimestamp", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
    metadata.remove("resourceVersion");
    return admitted;
  }
}
