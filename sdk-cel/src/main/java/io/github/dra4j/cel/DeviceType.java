package io.github.dra4j.cel;

import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableMap;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The CEL type of the {@code device} variable, {@code kubernetes.DRADevice}: a struct (unknown
 * fields are compile errors) with {@code driver}, {@code attributes}, {@code capacity} and, when
 * declared, {@code allowMultipleAllocations}. Also the type provider that makes the type known to
 * the checker. Immutable.
 */
final class DeviceType implements CelTypeProvider {

  static final String NAME = "kubernetes.DRADevice";
  static final String FIELD_DRIVER = "driver";
  static final String FIELD_ATTRIBUTES = "attributes";
  static final String FIELD_CAPACITY = "capacity";
  static final String FIELD_ALLOW_MULTIPLE = "allowMultipleAllocations";

  private final StructType type;

  /**
   * Declares the device type.
   *
   * @param allowMultipleAllocations whether the field {@code allowMultipleAllocations} exists
   *     (consumable capacity)
   * @param dynamicAttributes whether attribute values are typed {@code dyn}, so that macros can
   *     iterate list values (list-typed attributes); otherwise {@code any}, which compares like
   *     {@code dyn} but cannot be the range of a macro
   */
  DeviceType(boolean allowMultipleAllocations, boolean dynamicAttributes) {
    CelType value = dynamicAttributes ? SimpleType.DYN : SimpleType.ANY;
    Map<String, CelType> fields = new LinkedHashMap<>();
    fields.put(FIELD_DRIVER, SimpleType.STRING);
    fields.put(FIELD_ATTRIBUTES, domainMap(value));
    fields.put(FIELD_CAPACITY, domainMap(KubernetesTypes.QUANTITY));
    if (allowMultipleAllocations) {
      fields.put(FIELD_ALLOW_MULTIPLE, SimpleType.BOOL);
    }
    ImmutableMap<String, CelType> frozen = ImmutableMap.copyOf(fields);
    this.type = StructType.create(
        NAME, ImmutableSet.copyOf(fields.keySet()), name -> Optional.ofNullable(frozen.get(name)));
  }

  private static CelType domainMap(CelType value) {
    return MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, value));
  }

  /** Returns the struct type to declare the variable with. */
  StructType type() {
    return type;
  }

  @Override
  public ImmutableCollection<CelType> types() {
    return ImmutableList.of(type);
  }

  @Override
  public Optional<CelType> findType(String typeName) {
    return NAME.equals(typeName) ? Optional.of(type) : Optional.empty();
  }
}
