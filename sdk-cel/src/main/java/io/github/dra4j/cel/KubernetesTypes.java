package io.github.dra4j.cel;

import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.OpaqueType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.TypeParamType;

/** The CEL types the Kubernetes libraries add; constants only. */
final class KubernetesTypes {

  static final OpaqueType QUANTITY = OpaqueType.create("kubernetes.Quantity");
  static final OpaqueType SEMVER = OpaqueType.create("kubernetes.Semver");
  static final OpaqueType URL = OpaqueType.create("kubernetes.URL");
  static final OpaqueType IP = OpaqueType.create("net.IP");
  static final OpaqueType CIDR = OpaqueType.create("net.CIDR");
  static final OpaqueType FORMAT = OpaqueType.create("kubernetes.NamedFormat");

  static final CelType STRING = SimpleType.STRING;
  static final CelType INT = SimpleType.INT;
  static final CelType BOOL = SimpleType.BOOL;
  static final CelType DOUBLE = SimpleType.DOUBLE;
  static final CelType DYN = SimpleType.DYN;
  static final CelType STRING_LIST = ListType.create(SimpleType.STRING);
  static final TypeParamType T = TypeParamType.create("T");
  static final CelType LIST_T = ListType.create(T);
  static final CelType STRING_TO_STRING_LIST = MapType.create(SimpleType.STRING, STRING_LIST);

  private KubernetesTypes() {}
}
