package io.github.dra4j.resourceapi;

import java.util.List;
import java.util.Objects;
import tools.jackson.databind.node.ObjectNode;

/**
 * What the API server makes of one write of a {@code resource.k8s.io} object: the object as it
 * would store it (defaults applied, fields it drops removed, fields it sets filled in, in the
 * version it was sent in), or the fields that make it refuse the write, and the warnings it
 * answers with. Immutable.
 *
 * @param object the object as stored; the object sent if the write is refused
 * @param errors the refused fields; empty if the write is accepted
 * @param warnings the {@code Warning} texts of the answer, in order
 */
public record Admission(ObjectNode object, List<FieldError> errors, List<String> warnings) {

  /**
   * Copies the lists.
   *
   * @param object the object, not null
   * @param errors the refused fields, not null
   * @param warnings the warnings, not null
   */
  public Admission {
    Objects.requireNonNull(object, "object");
    errors = List.copyOf(errors);
    warnings = List.copyOf(warnings);
  }

  /**
   * Tells whether the write is accepted.
   *
   * @return true if no field is refused
   */
  public boolean accepted() {
    return errors.isEmpty();
  }
}
