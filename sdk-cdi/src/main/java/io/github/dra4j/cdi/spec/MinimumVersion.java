package io.github.dra4j.cdi.spec;

import java.util.ArrayList;
import java.util.List;
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
    List<RequiredVersion> all = requirements(spec);
    return all.isEmpty() ? new RequiredVersion(CdiVersion.V0_3_0, "none") : all.get(0);
  }

  /**
   * Lists every use of a feature newer than 0.3.0, newest version first; within one version in
   * the library's check order (spec-level edits before each device's). The first entry is
   * {@link #required}. Lets a writer name every field an older runtime would refuse.
   *
   * @param spec the spec
   * @return the requirements; empty if the spec needs nothing beyond 0.3.0
   */
  public static List<RequiredVersion> requirements(CdiSpec spec) {
    List<RequiredVersion> found = new ArrayList<>();
    editsFeatures(spec, CdiVersion.V1_1_0, List.of(
        feature("netDevices", e -> !e.netDevices().isEmpty()),
        feature("intelRdt.schemata",
            e -> e.intelRdt() != null && e.intelRdt().schemata() != null),
        feature("intelRdt.enableMonitoring",
            e -> e.intelRdt() != null && e.intelRdt().enableMonitoring())),
        found);
    editsFeatures(spec, CdiVersion.V0_7_0, List.of(
        feature("intelRdt", e -> e.intelRdt() != null),
        feature("additionalGids", e -> !e.additionalGids().isEmpty())), found);
    annotationsAndKind(spec, found);
    for (Device device : spec.devices()) {
      String name = device.name();
      if (!name.isEmpty() && name.charAt(0) >= '0' && name.charAt(0) <= '9') {
        found.add(new RequiredVersion(
            CdiVersion.V0_5_0, "devices[" + name + "].name (starts with a digit)"));
      }
    }
    editsFeatures(spec, CdiVersion.V0_5_0, List.of(feature("deviceNodes.hostPath",
        e -> e.deviceNodes().stream().anyMatch(n -> !n.hostPath().isEmpty()))), found);
    editsFeatures(spec, CdiVersion.V0_4_0, List.of(feature("mounts.type",
        e -> e.mounts().stream().anyMatch(m -> !m.type().isEmpty()))), found);
    return List.copyOf(found);
  }

  private static void annotationsAndKind(CdiSpec spec, List<RequiredVersion> found) {
    if (!spec.annotations().isEmpty()) {
      found.add(new RequiredVersion(CdiVersion.V0_6_0, "annotations"));
    }
    for (Device device : spec.devices()) {
      if (!device.annotations().isEmpty()) {
        found.add(new RequiredVersion(
            CdiVersion.V0_6_0, "devices[" + device.name() + "].annotations"));
      }
    }
    int slash = spec.kind().indexOf('/');
    if (slash >= 0 && spec.kind().indexOf('.', slash + 1) >= 0) {
      found.add(new RequiredVersion(CdiVersion.V0_6_0, "kind (dot in class)"));
    }
  }

  private record Feature(String name, Predicate<ContainerEdits> present) {}

  private static Feature feature(String name, Predicate<ContainerEdits> present) {
    return new Feature(name, present);
  }

  /** Each feature found in the spec-level edits, then in each device's edits. */
  private static void editsFeatures(
      CdiSpec spec, CdiVersion version, List<Feature> features, List<RequiredVersion> found) {
    for (Feature feature : features) {
      if (feature.present().test(spec.containerEdits())) {
        found.add(new RequiredVersion(version, "containerEdits." + feature.name()));
      }
    }
    for (Device device : spec.devices()) {
      for (Feature feature : features) {
        if (feature.present().test(device.containerEdits())) {
          found.add(new RequiredVersion(
              version, "devices[" + device.name() + "].containerEdits." + feature.name()));
        }
      }
    }
  }
}
