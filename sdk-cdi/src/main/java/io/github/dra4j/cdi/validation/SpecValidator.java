package io.github.dra4j.cdi.validation;

import io.github.dra4j.cdi.name.NameRules;
import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.CdiVersion;
import io.github.dra4j.cdi.spec.Device;
import io.github.dra4j.cdi.spec.MinimumVersion;
import io.github.dra4j.cdi.spec.RequiredVersion;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Checks a spec against the reference library's rules ({@link ValidationRules#RUNTIME}) or the
 * stricter rules for files this SDK writes ({@link ValidationRules#WRITER}).
 *
 * <p>All problems are collected, in the library's check order (version, vendor, class, spec
 * annotations, spec-level edits, then per device name, annotations, non-empty edits and edits,
 * then duplicate names and the device count), so the first problem is the one a runtime reports.
 * Stateless and thread-safe.
 */
public final class SpecValidator {
  private SpecValidator() {}

  /**
   * Lists every rule the spec breaks.
   *
   * @param spec the spec
   * @param rules the rule set
   * @return the problems; empty if the spec is valid
   */
  public static List<SpecProblem> problems(CdiSpec spec, ValidationRules rules) {
    ProblemList problems = new ProblemList();
    checkVersion(spec, rules, problems);
    checkKind(spec.kind(), rules, problems);
    if (rules == ValidationRules.WRITER) {
      AnnotationRules.check(spec.annotations(), "annotations", problems);
    }
    EditsValidator edits = new EditsValidator(rules, problems);
    edits.check(spec.containerEdits(), "containerEdits");
    List<Device> devices = spec.devices();
    for (int i = 0; i < devices.size(); i++) {
      checkDevice(devices.get(i), "devices[" + i + "]", rules, edits, problems);
    }
    problems.device(null);
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < devices.size(); i++) {
      String name = devices.get(i).name();
      if (!seen.add(name)) {
        problems.add("devices[" + i + "].name", name,
            "invalid spec, multiple device \"" + name + "\"");
      }
    }
    if (devices.isEmpty()) {
      problems.add("devices", "[]", "invalid spec, no devices");
    }
    return problems.toList();
  }

  /**
   * Throws if the spec breaks any rule.
   *
   * @param spec the spec
   * @param rules the rule set
   * @param source the spec's file or another description, used in the message
   * @throws InvalidSpecException listing every problem
   */
  public static void check(CdiSpec spec, ValidationRules rules, String source) {
    List<SpecProblem> problems = problems(spec, rules);
    if (!problems.isEmpty()) {
      throw new InvalidSpecException(source, problems);
    }
  }

  private static void checkVersion(CdiSpec spec, ValidationRules rules, ProblemList problems) {
    String declared = spec.cdiVersion();
    Optional<CdiVersion> version = CdiVersion.parse(declared);
    if (version.isEmpty()) {
      problems.add("cdiVersion", declared, "invalid version \"" + declared + "\"");
      return;
    }
    RequiredVersion required = MinimumVersion.required(spec);
    if (!version.get().isAtLeast(required.version())) {
      problems.add("cdiVersion", declared, "the spec version must be at least v"
          + required.version().text() + " (needed by " + required.feature() + ")");
    }
    if (rules == ValidationRules.WRITER && declared.startsWith("v")) {
      problems.add("cdiVersion", declared, "write the version without a leading 'v'");
    }
  }

  private static void checkKind(String kind, ValidationRules rules, ProblemList problems) {
    int slash = kind.indexOf('/');
    if (slash <= 0 || slash == kind.length() - 1) {
      problems.add("kind", kind, "invalid vendor. empty name (kind must be vendor/class)");
      return;
    }
    String vendor = kind.substring(0, slash);
    String className = kind.substring(slash + 1);
    boolean strict = rules == ValidationRules.WRITER;
    (strict ? NameRules.strictVendorProblem(vendor) : NameRules.vendorProblem(vendor))
        .ifPresent(reason -> problems.add("kind", kind, reason));
    (strict ? NameRules.strictClassProblem(className) : NameRules.classProblem(className))
        .ifPresent(reason -> problems.add("kind", kind, reason));
  }

  private static void checkDevice(Device device, String field, ValidationRules rules,
      EditsValidator edits, ProblemList problems) {
    problems.device(device.name());
    NameRules.deviceNameProblem(device.name())
        .ifPresent(reason -> problems.add(field + ".name", device.name(), reason));
    if (rules == ValidationRules.WRITER) {
      AnnotationRules.check(device.annotations(), field + ".annotations", problems);
    }
    if (device.containerEdits().isEmpty()) {
      problems.add(field + ".containerEdits", "{}", "invalid device, empty device edits");
    }
    edits.check(device.containerEdits(), field + ".containerEdits");
  }
}
