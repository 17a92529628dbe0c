package io.github.dra4j.cdi.validation;

import java.util.ArrayList;
import java.util.List;

/** Collects problems for one spec; the current device is set while a device is checked. */
final class ProblemList {
  private final List<SpecProblem> problems = new ArrayList<>();
  private String device;

  void device(String name) {
    this.device = name;
  }

  void add(String field, Object value, String reason) {
    problems.add(new SpecProblem(device, field, String.valueOf(value), reason));
  }

  List<SpecProblem> toList() {
    return List.copyOf(problems);
  }
}
