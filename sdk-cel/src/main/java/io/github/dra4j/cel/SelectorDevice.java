package io.github.dra4j.cel;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceCapacity;
import io.github.dra4j.core.quantity.QuantityValue;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * A device as a DRA selector sees it: the CEL {@code device} variable of type {@code
 * kubernetes.DRADevice} with {@code driver}, {@code attributes}, {@code capacity} and {@code
 * allowMultipleAllocations}.
 *
 * <p>Attribute names are split at the first {@code /} into domain and identifier; a name without a
 * domain lands under the driver's name. Values are converted once, when the view is built: ints,
 * bools, strings, versions (as {@code kubernetes.Semver}) and, with the feature gate {@code
 * DRAListTypeAttributes} on, their list forms; capacities become {@code kubernetes.Quantity}
 * values. Like Kubernetes, a value that cannot be converted (a version that is not strict semver,
 * an attribute without a value) makes every expression on this device fail with {@link
 * #conversionError()}.
 *
 * <p>{@code allowMultipleAllocations} is {@code Device.allowMultipleAllocations}, false when unset
 * (consumable capacity: feature gate {@code DRAConsumableCapacity}, beta in Kubernetes 1.36).
 *
 * <p>List-valued attributes ({@code ints}, {@code bools}, {@code strings}, {@code versions})
 * follow an alpha Kubernetes feature (gate {@code DRAListTypeAttributes}, alpha in 1.36, off by
 * default). With the gate on they become CEL lists. With it off the scheduler of Kubernetes 1.36
 * does not read them, so an attribute holding only a list has no value: {@code attribute <name>:
 * unsupported attribute value}, and every selector fails on that device (which aborts an
 * allocation attempt that evaluates it). An API server with the gate off drops list values when a
 * ResourceSlice is created, so a real cluster shows this only after the gate was turned off.
 *
 * <p>Build one view per device and reuse it for all selectors: it is immutable and safe to share
 * between threads.
 */
public final class SelectorDevice {

  private final String driver;
  private final String name;
  private final Map<String, Object> variable;
  private final String conversionError;

  private SelectorDevice(
      String driver, String name, Map<String, Object> variable, String conversionError) {
    this.driver = driver;
    this.name = name;
    this.variable = variable;
    this.conversionError = conversionError;
  }

  /**
   * Builds the CEL view of a device published by a driver, with list-valued attributes read as
   * lists (feature gate {@code DRAListTypeAttributes} on).
   *
   * @param driver the {@code spec.driver} of the ResourceSlice holding the device (may be empty)
   * @param device the device from {@code spec.devices}
   * @return the view; check {@link #conversionError()} for values Kubernetes would refuse
   * @throws NullPointerException if {@code device} is null
   */
  public static SelectorDevice of(String driver, Device device) {
    return of(driver, device, true);
  }

  /**
   * Builds the CEL view of a device published by a driver, reading list-valued attributes as the
   * scheduler does with the given setting of the feature gate {@code DRAListTypeAttributes}.
   *
   * @param driver the {@code spec.driver} of the ResourceSlice holding the device (may be empty)
   * @param device the device from {@code spec.devices}
   * @param listTypeAttributes true to read {@code ints}, {@code bools}, {@code strings} and {@code
   *     versions} as CEL lists; false to ignore them as Kubernetes 1.36 does with the gate off, so
   *     that an attribute holding only a list is an unsupported value
   * @return the view; check {@link #conversionError()} for values Kubernetes would refuse
   * @throws NullPointerException if {@code device} is null
   */
  public static SelectorDevice of(String driver, Device device, boolean listTypeAttributes) {
    Objects.requireNonNull(device, "device");
    String driverName = driver == null ? "" : driver;
    String error = null;
    Map<String, Map<String, Object>> attributes = new TreeMap<>();
    try {
      attributes = split(driverName, device.getAttributes(),
          entry -> attributeValue(entry, listTypeAttributes));
    } catch (IllegalArgumentException e) {
      error = e.getMessage();
    }
    Map<String, Map<String, Object>> capacity = new TreeMap<>();
    try {
      capacity = split(driverName, device.getCapacity(), SelectorDevice::capacityValue);
    } catch (IllegalArgumentException e) {
      error = error != null ? error : e.getMessage();
    }
    boolean multiple = Boolean.TRUE.equals(device.getAllowMultipleAllocations());
    Map<String, Object> variable = new DeviceVariable(driverName, new DomainMap(attributes),
        new DomainMap(capacity), multiple);
    return new SelectorDevice(driverName, device.getName(), variable, error);
  }

  private static <V> Map<String, Map<String, Object>> split(
      String driver, Map<String, V> values, Function<Map.Entry<String, V>, Object> convert) {
    Map<String, Map<String, Object>> byDomain = new TreeMap<>();
    if (values == null) {
      return byDomain;
    }
    for (Map.Entry<String, V> entry : new TreeMap<>(values).entrySet()) {
      String qualified = entry.getKey();
      int slash = qualified.indexOf('/');
      String domain = slash >= 0 ? qualified.substring(0, slash) : driver;
      String id = slash >= 0 ? qualified.substring(slash + 1) : qualified;
      byDomain.computeIfAbsent(domain, d -> new TreeMap<>()).put(id, convert.apply(entry));
    }
    for (Map.Entry<String, Map<String, Object>> entry : byDomain.entrySet()) {
      entry.setValue(Collections.unmodifiableMap(new LinkedHashMap<>(entry.getValue())));
    }
    return byDomain;
  }

  private static Object attributeValue(
      Map.Entry<String, DeviceAttribute> entry, boolean listTypeAttributes) {
    String name = entry.getKey();
    DeviceAttribute value = entry.getValue();
    if (value == null) {
      throw unsupported(name);
    }
    if (listTypeAttributes) {
      Object list = listValue(name, value);
      if (list != null) {
        return list;
      }
    }
    if (value.getInt() != null) {
      return value.getInt();
    }
    if (value.getBool() != null) {
      return value.getBool();
    }
    if (value.getString() != null) {
      return value.getString();
    }
    if (value.getVersion() != null) {
      return version(name, value.getVersion());
    }
    throw unsupported(name);
  }

  /** Returns the first list value set (ints, bools, strings, versions), or null. */
  private static Object listValue(String name, DeviceAttribute value) {
    if (isSet(value.getInts())) {
      return List.copyOf(value.getInts());
    }
    if (isSet(value.getBools())) {
      return List.copyOf(value.getBools());
    }
    if (isSet(value.getStrings())) {
      return List.copyOf(value.getStrings());
    }
    if (isSet(value.getVersions())) {
      List<SemverValue> versions = new ArrayList<>();
      for (String version : value.getVersions()) {
        versions.add(version(name, version));
      }
      return List.copyOf(versions);
    }
    return null;
  }

  private static boolean isSet(List<?> values) {
    return values != null && !values.isEmpty();
  }

  private static SemverValue version(String name, String text) {
    try {
      return SemverValue.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "attribute " + name + ": parse semantic version: " + e.getMessage(), e);
    }
  }

  private static IllegalArgumentException unsupported(String name) {
    return new IllegalArgumentException("attribute " + name + ": unsupported attribute value");
  }

  private static Object capacityValue(Map.Entry<String, DeviceCapacity> entry) {
    DeviceCapacity capacity = entry.getValue();
    if (capacity == null || capacity.getValue() == null) {
      throw new IllegalArgumentException("capacity " + entry.getKey() + ": missing value");
    }
    String text = capacity.getValue().toString();
    try {
      return QuantityValue.parse(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "capacity " + entry.getKey() + ": value \"" + text + "\": " + e.getMessage(), e);
    }
  }

  /**
   * Returns the driver name the device was published by.
   *
   * @return the slice's {@code spec.driver}; empty when it was null. Attribute names without a
   *     domain are looked up under this name.
   */
  public String driver() {
    return driver;
  }

  /**
   * Returns the device name ({@code Device.name}); not visible to CEL.
   *
   * @return the device's name within its pool, as published
   */
  public String name() {
    return name;
  }

  /**
   * Returns why this device's values could not be converted, in Kubernetes' words (e.g. {@code
   * attribute driverVersion: parse semantic version: ...}); empty when all values are fine.
   *
   * @return the first conversion error; when present, {@link CompiledSelector#evaluate} fails
   *     with exactly this text for every expression
   */
  public Optional<String> conversionError() {
    return Optional.ofNullable(conversionError);
  }

  /** Returns the value bound to the CEL variable {@code device}. */
  Map<String, Object> variable() {
    return variable;
  }

  /** The {@code device} variable: a fixed-field map, read by CEL field selection. */
  private static final class DeviceVariable extends AbstractMap<String, Object> {
    private final String driver;
    private final DomainMap attributes;
    private final DomainMap capacity;
    private final boolean allowMultipleAllocations;

    DeviceVariable(String driver, DomainMap attributes, DomainMap capacity, boolean multiple) {
      this.driver = driver;
      this.attributes = attributes;
      this.capacity = capacity;
      this.allowMultipleAllocations = multiple;
    }

    @Override
    public Object get(Object key) {
      if (!(key instanceof String string)) {
        return null;
      }
      return switch (string) {
        case DeviceType.FIELD_DRIVER -> driver;
        case DeviceType.FIELD_ATTRIBUTES -> attributes;
        case DeviceType.FIELD_CAPACITY -> capacity;
        case DeviceType.FIELD_ALLOW_MULTIPLE -> allowMultipleAllocations;
        default -> null;
      };
    }

    @Override
    public boolean containsKey(Object key) {
      return get(key) != null;
    }

    @Override
    public Set<Entry<String, Object>> entrySet() {
      return Map.<String, Object> of(
          DeviceType.FIELD_DRIVER, driver,
          DeviceType.FIELD_ATTRIBUTES, attributes,
          DeviceType.FIELD_CAPACITY, capacity,
          DeviceType.FIELD_ALLOW_MULTIPLE, allowMultipleAllocations)
          .entrySet();
    }
  }
}
