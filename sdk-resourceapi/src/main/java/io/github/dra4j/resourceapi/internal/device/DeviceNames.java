package io.github.dra4j.resourceapi.internal.device;

import io.github.dra4j.core.name.NameFormats;
import io.github.dra4j.resourceapi.internal.field.GoValues;
import java.nio.charset.StandardCharsets;

/** Checks behind {@link DeviceFieldRules}: pool names and google/uuid's Validate. Stateless. */
final class DeviceNames {

  private DeviceNames() {}

  static boolean isPoolName(String name) {
    int start = 0;
    for (int slash = name.indexOf('/');; slash = name.indexOf('/', start)) {
      String part = name.substring(start, slash < 0 ? name.length() : slash);
      if (!NameFormats.isDns1123Subdomain(part)) {
        return false;
      }
      if (slash < 0) {
        return true;
      }
      start = slash + 1;
    }
  }

  /** google/uuid's Validate over the UTF-8 bytes: the error text, or null if it parses. */
  static String uuidProblem(String value) {
    byte[] s = value.getBytes(StandardCharsets.UTF_8);
    int start = 0;
    switch (s.length) {
      case 36 -> {
      }
      case 45 -> {
        String prefix = new String(s, 0, 9, StandardCharsets.UTF_8);
        if (!prefix.equalsIgnoreCase("urn:uuid:")) {
          return "invalid urn prefix: " + GoValues.quote(prefix);
        }
        start = 9;
      }
      case 38 -> {
        if (s[0] != '{' || s[37] != '}') {
          return "invalid bracketed UUID format";
        }
        start = 1;
      }
      case 32 -> {
        for (byte b : s) {
          if (!isHex(b)) {
            return "invalid UUID format";
          }
        }
        return null;
      }
      default -> {
        return "invalid UUID length: " + s.length;
      }
    }
    for (int i = 0; i < 36; i++) {
      byte c = s[start + i];
      boolean hyphen = i == 8 || i == 13 || i == 18 || i == 23;
      if (hyphen ? c != '-' : !isHex(c)) {
        return "invalid UUID format";
      }
    }
    return null;
  }

  static boolean isHex(byte c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
  }
}
