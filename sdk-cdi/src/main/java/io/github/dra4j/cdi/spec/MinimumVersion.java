package io.github.dra4j.cdi.spec;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * Computes the lowest spec version a spec's features need, with the reference library's rule, so
 * that a runtime built on an older library still accepts the file.
 *
 * <p>Spec-level and every device's container edits are inspected; the newest requirement wins:
 *
 * <ul>
 *   <li>1.1.0: a non-empty {@code netDevices}, or an {@code intelRdt} with {@code schemata}
 *       present (even empty) or {@code enableMonitoring} true;
 *   <li>0.7.0: any {@code intelRdt} (even empty) or non-empty {@code additionalGids};
 *   <li>0.6.0: spec or device annotations, or a dot in the class part of {@code kind};
 *   <li>0.5.0: a device name starting with a digit, or a device node with a {@code hostPath};
 *   <li>0.4.0: a mount with a {@code type};
 *   <li>0.3.0 otherwise.
 * </ul>
 */
public final class MinimumVersion {
  private MinimumVersion() {}

  /**
   * Returns the lowest version the spec needs.
   *
   * @param spec the spec
   * @return the version, at least {@link CdiVersion#EARLIEST_ACCEPTED}
   */
  public static CdiVersion of(CdiSpec spec) {
    return required(spec).version();
  }

  /**
   * Returns the lowest version the spec needs and which feature needs it.
   *
   * @param spec the spec
   * @return the requirement
   */
  public static RequiredVersion required(CdiSpec spec) {
    return needs110(spec)
        .or(() -> needs070(spec))
        .or(() -> needs060(spec))
        .or(() -> needs050(spec))
        .or(() -> needs040(spec))
        .orElse(new RequiredVersion(CdiVersion.V0_3_0, "none"));
  }

  private static Optional<RequiredVersion> needs110(CdiSpec spec) {
    return firstEdits(spec, CdiVersion.V1_1_0, List.of(
        feature("netDevices", e -> !e.netDevices().isEmpty()),
        feature("intelRdt.schemata",
            e -> e.intelRdt() != null && e.intelRdt().schemata() != null),
        feature("intelRdt.enableMonitoring",
            e -> e.intelRdt() != null && e.intelRdt().enableMonitoring())));
  }

  private static Optional<RequiredVersion> needs070(CdiSpec spec) {
    return firstEdits(spec, CdiVersion.V0_7_0, List.of(
        feature("intelRdt", e -> e.intelRdt() != null),
        feature("additionalGids", e -> !e.additionalGids().isEmpty())));
  }

  private static Optional<RequiredVersion> needs060(CdiSpec spec) {
    if (!spec.annotations().isEmpty()) {
      return Optional.of(new RequiredVersion(CdiVersion.V0_6_0, "annotations"));
    }
    for (Device device : spec.devices()) {
      if (!device.annotations().isEmpty()) {
        return Optional.of(new RequiredVersion(
            CdiVersion.V0_6_0, "devices[" + device.name() + "].annotations"));
      }
    }
    int slash = spec.kind().indexOf('/');
    if (slash >= 0 && spec.kind().indexOf('.', slash + 1) >= 0) {
      return Optional.of(new RequiredVersion(CdiVersion.V0_6_0, "kind (dot in class)"));
    }
    return Optional.empty();
  }

  private static Optional<RequiredVersion> needs050(CdiSpec spec) {
    for (Device device : spec.devices()) {
      String name = device.name();
      if (!name.isEmpty() && name.charAt(0) >= '0' && name.charAt(0) <= '9') {
        return Optional.of(new RequiredVersion(
            CdiVersion.V0_5_0, "devices[" + name + "].name (starts with a digit)"));
      }
    }
    return firstEdits(spec, CdiVersion.V0_5_0, List.of(
        feature("deviceNodes.hostPath",
            e -> e.deviceNodes().stream().anyMatch(n -> !n.hostPath().isEmpty()))));
  }

  private static Optional<RequiredVersion> needs040(CdiSpec spec) {
    return firstEdits(spec, CdiVersion.V0_4_0, List.of(
        feature("mounts.type", e -> e.mounts().stream().anyMatch(m -> !m.type().isEmpty()))));
  }

  private record Feature(String name, Predicate<ContainerEdits> present) {}

  private static Feature feature(String name, Predicate<ContainerEdits> present) {
    return new Feature(name, present);
  }

  /** The first feature found in the spec-level edits, then in each device's edits. */
  private static Optional<RequiredVersion> firstEdits(
      CdiSpec spec, CdiVersion version, List<Feature> features) {
    Function<ContainerEdits, Optional<String>> find = edits -> features.stream()
        .filter(f -> f.present().test(edits))
        .map(Feature::name)
        .findFirst();
    Optional<String> found = find.apply(spec.containerEdits()).map(f -> "containerEdits." + f);
    for (Device device : spec.devices()) {
      if (found.isPresent()) {
        break;
      }
      found = find.apply(device.containerEdits())
          .map(f -> "devices[" + device.name() + "].containerEdits." + f);
    }
    return found.map(f -> new RequiredVersion(version, f));
  }
}
