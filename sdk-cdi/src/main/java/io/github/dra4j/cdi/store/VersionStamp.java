package io.github.dra4j.cdi.store;

import io.github.dra4j.cdi.spec.CdiSpec;
import io.github.dra4j.cdi.spec.CdiVersion;
import io.github.dra4j.cdi.spec.MinimumVersion;
import io.github.dra4j.cdi.spec.RequiredVersion;
import io.github.dra4j.cdi.validation.InvalidSpecException;
import io.github.dra4j.cdi.validation.SpecProblem;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The version a spec is written with, for runtimes that know spec versions up to a maximum.
 *
 * <p>A spec without a version gets the lowest version its features need. A spec that names a
 * version keeps it; if that is below what its features need, validation refuses it. Runtimes
 * refuse a version they do not know, so neither the version nor a feature may be newer than the
 * maximum: every field that needs a newer version is named.
 */
final class VersionStamp {
  private VersionStamp() {}

  static CdiSpec apply(CdiSpec spec, CdiVersion maximum, String source) {
    CdiSpec stamped = spec.cdiVersion().isEmpty() ? spec.withMinimumVersion() : spec;
    if (maximum == CdiVersion.LATEST) {
      return stamped;
    }
    List<SpecProblem> problems = new ArrayList<>();
    String runtimes = " (runtimes that know spec versions only up to " + maximum.text()
        + " refuse the file)";
    Optional<CdiVersion> declared = CdiVersion.parse(stamped.cdiVersion());
    // A version the features need anyway is not named again: the features are.
    if (declared.isPresent() && !maximum.isAtLeast(declared.get())
        && !MinimumVersion.of(stamped).isAtLeast(declared.get())) {
      problems.add(new SpecProblem(null, "cdiVersion", stamped.cdiVersion(),
          "is newer than the maximum version " + maximum.text() + runtimes));
    }
    for (RequiredVersion required : MinimumVersion.requirements(stamped)) {
      if (!maximum.isAtLeast(required.version())) {
        problems.add(new SpecProblem(null, required.feature(), "set",
            "needs spec version " + required.version().text()
                + ", newer than the maximum version " + maximum.text() + runtimes));
      }
    }
    if (!problems.isEmpty()) {
      throw new InvalidSpecException(source, problems);
    }
    return stamped;
  }
}
