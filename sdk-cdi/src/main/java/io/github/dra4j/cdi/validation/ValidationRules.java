package io.github.dra4j.cdi.validation;

/** Which rule set a spec is checked against. */
public enum ValidationRules {
  /**
   * Exactly what a runtime built on the released reference library (v1.1.0) accepts when it loads
   * a file. Used when reading spec directories, so that load errors match a runtime's.
   */
  RUNTIME,

  /**
   * {@link #RUNTIME} plus the rules for files this SDK writes, where the library is lax but a
   * runtime or the kernel would fail later, or an older runtime would refuse the file: lower-case
   * DNS vendor of at most 253 characters and class of at most 63; absolute, normalized paths; valid
   * annotation keys; hook timeouts above 0; Linux interface names; permission-only file modes; no
   * root {@code closID} (older runtimes refuse it); no leading {@code v} in {@code cdiVersion}.
   */
  WRITER
}
