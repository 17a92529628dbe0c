package io.github.dra4j.resourceapi.internal.slice;

import io.fabric8.kubernetes.api.model.resource.v1.Device;
import io.fabric8.kubernetes.api.model.resource.v1.DeviceAttribute;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.ResourceLimits;
import io.github.dra4j.resourceapi.internal.field.Errors;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The rules of one device attribute (validateDeviceAttribute): exactly one of the scalar or list
 * values, strings and versions at most 64 bytes, versions in semantic version 2.0.0 form; and
 * the count of attribute values that the device-level limit uses. Stateless.
 *
 * <p>Fabric8 decodes an absent list and an empty list alike, so a list given as {@code []} counts
 * as absent here: where the server says {@code must not be empty if specified} for it, this
 * reports the attribute as having no value (or one value fewer).
 */
final class AttributeValidation {

  private static final String NUMERIC = "(0|[1-9]\\d*)";
  private static final String PRE_RELEASE = "(0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)";
  private static final String BUILD = "[0-9a-zA-Z-]+";
  private static final Pattern SEMVER = Pattern.compile(NUMERIC + "\\." + NUMERIC + "\\." + NUMERIC
      + "(-" + PRE_RELEASE + "(\\." + PRE_RELEASE + ")*)?"
      + "(\\+" + BUILD + "(\\." + BUILD + ")*)?");

  private static final String ONE_VALUE = "exactly one value must be specified";
  private static final String SEMVER_MESSAGE = "must be a string compatible with semver.org spec 2.0.0";

  private AttributeValidation() {}

  /**
   * validateDeviceAttribute.
   *
   * @param attribute the attribute, null for one with no value
   * @param path the attribute's path, {@code spec.devices[i].attributes[name]}
   * @return the errors
   */
  static List<FieldError> attribute(DeviceAttribute attribute, FieldPath path) {
    DeviceAttribute value = attribute == null ? new DeviceAttribute() : attribute;
    List<FieldError> errors = new ArrayList<>();
    int set = 0;
    if (value.getBool() != null) {
      set++;
    }
    if (value.getInt() != null) {
      set++;
    }
    if (value.getString() != null) {
      set++;
      errors.addAll(string(value.getString(), path.child("string")));
    }
    if (value.getVersion() != null) {
      set++;
      errors.addAll(version(value.getVersion(), path.child("version")));
    }
    if (present(value.getBools())) {
      set++;
    }
    if (present(value.getInts())) {
      set++;
    }
    if (present(value.getStrings())) {
      set++;
      for (int i = 0; i < value.getStrings().size(); i++) {
        errors.addAll(string(value.getStrings().get(i), path.child("strings").index(i)));
      }
    }
    if (present(value.getVersions())) {
      set++;
      for (int i = 0; i < value.getVersions().size(); i++) {
        errors.addAll(version(value.getVersions().get(i), path.child("versions").index(i)));
      }
    }
    if (set == 0) {
      errors.add(Errors.invalid(path, "", ONE_VALUE));
    } else if (set > 1) {
      errors.add(Errors.invalid(path, GoSyntax.deviceAttribute(value), ONE_VALUE));
    }
    return errors;
  }

  /**
   * numEntriesDeviceAttribute: the number of attribute values of a device, each item of a list
   * counted on its own, an attribute without lists counted once.
   *
   * @param device the device
   * @return the count
   */
  static int valueCount(Device device) {
    if (device.getAttributes() == null) {
      return 0;
    }
    int count = 0;
    for (DeviceAttribute attribute : device.getAttributes().values()) {
      int items = attribute == null ? 0 : size(attribute.getBools()) + size(attribute.getInts())
          + size(attribute.getStrings()) + size(attribute.getVersions());
      count += items == 0 ? 1 : items;
    }
    return count;
  }

  /**
   * Tells whether an attribute has a list value (one of the advanced features that lower the
   * device limit of a slice).
   *
   * @param attribute the attribute, may be null
   * @return true if one of its lists is set
   */
  static boolean hasList(DeviceAttribute attribute) {
    return attribute != null && (present(attribute.getBools()) || present(attribute.getInts())
        || present(attribute.getStrings()) || present(attribute.getVersions()));
  }

  private static List<FieldError> string(String value, FieldPath path) {
    List<FieldError> errors = new ArrayList<>();
    if (bytes(value) > ResourceLimits.DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH) {
      errors.add(Errors.tooLong(path, ResourceLimits.DEVICE_ATTRIBUTE_MAX_VALUE_LENGTH));
    }
    return errors;
  }

  private static List<FieldError> version(String value, FieldPath path) {
    String text = value == null ? "" : value;
    List<FieldError> errors = new ArrayList<>();
    if (!SEMVER.matcher(text).matches()) {
      errors.add(Errors.invalid(path, text, SEMVER_MESSAGE));
    }
    errors.addAll(string(text, path));
    return errors;
  }

  private static int bytes(String value) {
    return value == null ? 0 : value.getBytes(StandardCharsets.UTF_8).length;
  }

  private static boolean present(List<?> list) {
    return list != null && !list.isEmpty();
  }

  private static int size(List<?> list) {
    return list == null ? 0 : list.size();
  }
}
