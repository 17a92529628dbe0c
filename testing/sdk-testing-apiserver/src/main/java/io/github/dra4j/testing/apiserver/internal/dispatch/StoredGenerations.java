package io.github.dra4j.testing.apiserver.internal.dispatch;

import tools.jackson.databind.JsonNode;
import tools.jackson.databind.node.ObjectNode;

/**
 * {@code metadata.generation} of stored objects, where the fabric8 store and kube-apiserver
 * differ. The store gives every new object generation 1 and, on an update, copies the stored
 * generation and adds one when anything outside {@code metadata} and {@code status} changed. For
 * the kinds the API rules govern, the rules decide instead, as the kinds' strategies do on a real
 * server: slices, classes and taint rules start at 1 and count spec changes, while claims and
 * claim templates keep what the client sent on create (usually nothing) and the stored value on
 * update. For other kinds the store's rule stays, made safe for a stored object without a
 * generation.
 *
 * <p>Not thread-safe: a create is announced, stored and finished under the dispatcher's write
 * lock.
 */
final class StoredGenerations {

  private static final String GENERATION = "generation";

  private final RulesAdmission rules;
  private boolean creating;
  private JsonNode decided;

  StoredGenerations(RulesAdmission rules) {
    this.rules = rules;
  }

  /**
   * Announces a create of an object the rules admitted, before it is handed to the store.
   *
   * @param admitted the object as the rules would store it
   */
  void creating(ObjectNode admitted) {
    creating = true;
    decided = admitted.path("metadata").get(GENERATION);
  }

  /** Ends the create announced last, stored or not. */
  void created() {
    creating = false;
    decided = null;
  }

  /**
   * Tells whether a create of an object the rules admitted is in progress.
   *
   * @return true between {@link #creating} and {@link #created}
   */
  boolean isCreating() {
    return creating;
  }

  /**
   * Corrects the generation the store gave a new object to the one the rules decided.
   *
   * @param state the object the store is about to keep, changed in place
   */
  void onCreate(ObjectNode state) {
    if (creating) {
      restore(state, decided);
    }
  }

  /**
   * Makes a stored object safe for the store's copy of the stored generation: one without a
   * generation is read as generation 0.
   *
   * @param stored the stored object
   * @return the object itself, or a copy with generation 0
   */
  static JsonNode withGeneration(JsonNode stored) {
    if (stored.path("metadata").has(GENERATION) || !stored.path("metadata").isObject()) {
      return stored;
    }
    ObjectNode copy = (ObjectNode) stored.deepCopy();
    copy.withObjectProperty("metadata").put(GENERATION, 0);
    return copy;
  }

  /**
   * Settles the generation of an update after the store copied the stored one: the rules'
   * decision for a kind they govern, otherwise none if the stored object had none.
   *
   * @param stored the stored object
   * @param updated the object to store, changed in place
   * @param sent the generation {@code updated} had before the store changed it, or null
   */
  void onUpdate(JsonNode stored, JsonNode updated, JsonNode sent) {
    if (!(updated instanceof ObjectNode object)) {
      return;
    }
    if (governs(object)) {
      restore(object, sent);
    } else if (!stored.path("metadata").has(GENERATION)) {
      restore(object, null);
    }
  }

  /**
   * Tells whether the rules decide the generation of an object.
   *
   * @param object an object being stored
   * @return true if the store must not count its changes itself
   */
  boolean governs(JsonNode object) {
    return rules.governs(object.path("apiVersion").asString(""), object.path("kind").asString(""));
  }

  private static void restore(ObjectNode object, JsonNode generation) {
    ObjectNode metadata = object.withObjectProperty("metadata");
    if (generation == null || generation.isNull()) {
      metadata.remove(GENERATION);
    } else {
      metadata.set(GENERATION, generation.deepCopy());
    }
  }
}
