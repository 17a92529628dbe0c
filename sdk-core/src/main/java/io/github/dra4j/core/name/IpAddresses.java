package io.github.dra4j.core.name;

import java.util.List;
import java.util.regex.Pattern;

/**
 * IP addresses and prefixes parsed and printed as Go parses and prints them: {@code
 * net.ParseCIDR} (strict {@code netip} address syntax), Kubernetes' sloppy fallback that strips
 * leading zeros from IPv4 numbers, and {@code net.IP.String()} (dotted quads for IPv4 and
 * IPv4-mapped IPv6, RFC 5952 for IPv6). Stateless.
 */
final class IpAddresses {

  private static final String CIDR_MSG = "must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)";

  /** k8s.io/utils/net's zero stripping; {@code \z} where Go's {@code $} means end of text. */
  private static final Pattern MATCH_ZEROS = Pattern.compile("(^|:)0*(0|[1-9][0-9]*)\\.0*(0|"
      + "[1-9][0-9]*)\\.0*(0|[1-9][0-9]*)\\.0*(0|[1-9][0-9]*)((/)0*(0|[1-9][0-9]*))?\\z");
  private static final String STRIP_ZEROS = "$1$2.$3.$4.$5$7$8";
  private static final int BIG = 0xFFFFFF;

  /** A parsed prefix: the 16-byte address and the prefix length. */
  // Read field by field where it is parsed, never compared or hashed as a whole.
  @SuppressWarnings("ArrayRecordComponent")
  record Cidr(byte[] ip, int ones) {}

  private IpAddresses() {}

  static List<String> interfaceAddress(String value) {
    Cidr cidr = parseCidrSloppy(value);
    if (cidr == null) {
      return List.of(CIDR_MSG);
    }
    int maskSize = cidr.ones();
    if (isIpv4(cidr.ip()) && maskSize > 32) {
      maskSize -= 96;
    }
    String canonical = format(cidr.ip()) + "/" + maskSize;
    return value.equals(canonical) ? List.of()
        : List.of("must be in canonical form (\"" + canonical + "\")");
  }

  /**
   * Go's {@code netutils.ParseCIDRSloppy}: {@code net.ParseCIDR}, and on failure the same after
   * stripping leading zeros from a trailing IPv4 address and the prefix length.
   */
  static Cidr parseCidrSloppy(String value) {
    Cidr cidr = parseCidr(value);
    if (cidr == null) {
      cidr = parseCidr(MATCH_ZEROS.matcher(value).replaceAll(STRIP_ZEROS));
    }
    return cidr;
  }

  /**
   * An address, a slash and a decimal prefix length no longer than the address's bits (Go's
   * {@code net.ParseCIDR}); null when the text is not that.
   */
  static Cidr parseCidr(String value) {
    int slash = value.indexOf('/');
    if (slash < 0) {
      return null;
    }
    String addr = value.substring(0, slash);
    byte[] ip = new byte[16];
    int bits = parseAddr(addr, ip);
    if (bits < 0) {
      return null;
    }
    int n = 0;
    int i = slash + 1;
    for (; i < value.length() && value.charAt(i) >= '0' && value.charAt(i) <= '9'; i++) {
      n = n * 10 + value.charAt(i) - '0';
      if (n >= BIG) {
        return null;
      }
    }
    if (i == slash + 1 || i != value.length() || n > bits) {
      return null;
    }
    return new Cidr(ip, n);
  }

  /**
   * Go's {@code netip.ParseAddr} without zones: fills the 16-byte form (IPv4 mapped into IPv6).
   *
   * @return the bit length (32 or 128), or -1 if invalid
   */
  static int parseAddr(String s, byte[] ip) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '.') {
        if (!parseIpv4(s, 0, s.length(), ip, 12)) {
          return -1;
        }
        ip[10] = (byte) 0xff;
        ip[11] = (byte) 0xff;
        return 32;
      } else if (c == ':') {
        return parseIpv6(s, ip) ? 128 : -1;
      } else if (c == '%') {
        return -1;
      }
    }
    return -1;
  }

  private static boolean parseIpv4(String s, int start, int end, byte[] out, int offset) {
    int val = 0;
    int pos = 0;
    int digits = 0;
    for (int i = start; i < end; i++) {
      char c = s.charAt(i);
      if (c >= '0' && c <= '9') {
        if (digits == 1 && val == 0) {
          return false;
        }
        val = val * 10 + c - '0';
        digits++;
        if (val > 255) {
          return false;
        }
      } else if (c == '.') {
        if (i == start || i == end - 1 || s.charAt(i - 1) == '.' || pos == 3) {
          return false;
        }
        out[offset + pos++] = (byte) val;
        val = 0;
        digits = 0;
      } else {
        return false;
      }
    }
    if (pos < 3) {
      return false;
    }
    out[offset + 3] = (byte) val;
    return true;
  }

  private static boolean parseIpv6(String in, byte[] ip) {
    if (in.indexOf('%') >= 0) {
      return false; // a zone: net.ParseCIDR refuses it
    }
    int s = 0;
    int end = in.length();
    int ellipsis = -1;
    if (end - s >= 2 && in.charAt(0) == ':' && in.charAt(1) == ':') {
      ellipsis = 0;
      s = 2;
      if (s == end) {
        return true;
      }
    }
    int i = 0;
    while (i < 16) {
      int off = 0;
      int acc = 0;
      for (; s + off < end; off++) {
        int digit = hexDigit(in.charAt(s + off));
        if (digit < 0) {
          break;
        }
        acc = (acc << 4) + digit;
        if (off > 3 || acc > 0xFFFF) {
          return false;
        }
      }
      if (off == 0) {
        return false;
      }
      if (s + off < end && in.charAt(s + off) == '.') {
        if ((ellipsis < 0 && i != 12) || i + 4 > 16) {
          return false;
        }
        if (!parseIpv4(in, s, end, ip, i)) {
          return false;
        }
        s = end;
        i += 4;
        break;
      }
      ip[i] = (byte) (acc >> 8);
      ip[i + 1] = (byte) acc;
      i += 2;
      s += off;
      if (s == end) {
        break;
      }
      if (in.charAt(s) != ':' || s + 1 == end) {
        return false;
      }
      s++;
      if (in.charAt(s) == ':') {
        if (ellipsis >= 0) {
          return false;
        }
        ellipsis = i;
        s++;
        if (s == end) {
          break;
        }
      }
    }
    if (s != end) {
      return false;
    }
    if (i < 16) {
      if (ellipsis < 0) {
        return false;
      }
      int n = 16 - i;
      for (int j = i - 1; j >= ellipsis; j--) {
        ip[j + n] = ip[j];
      }
      for (int j = ellipsis; j < ellipsis + n; j++) {
        ip[j] = 0;
      }
    } else if (ellipsis >= 0) {
      return false;
    }
    return true;
  }

  /** Go's {@code To4() != nil}: the first ten bytes zero and then two 0xff bytes. */
  static boolean isIpv4(byte[] ip) {
    for (int i = 0; i < 10; i++) {
      if (ip[i] != 0) {
        return false;
      }
    }
    return ip[10] == (byte) 0xff && ip[11] == (byte) 0xff;
  }

  /**
   * The text of a 16-byte address: an IPv4 (or IPv4-mapped) one as a dotted quad, else lower-case
   * hex groups without leading zeros, the first longest run of two or more zero groups as {@code
   * ::} (Go's {@code net.IP.String()}).
   */
  static String format(byte[] ip) {
    StringBuilder out = new StringBuilder(39);
    if (isIpv4(ip)) {
      for (int i = 12; i < 16; i++) {
        if (i > 12) {
          out.append('.');
        }
        out.append(ip[i] & 0xff);
      }
      return out.toString();
    }
    int zeroStart = -1;
    int zeroEnd = -1;
    for (int g = 0; g < 8; g++) {
      int j = g;
      while (j < 8 && group(ip, j) == 0) {
        j++;
      }
      if (j - g >= 2 && j - g > zeroEnd - zeroStart) {
        zeroStart = g;
        zeroEnd = j;
      }
    }
    for (int g = 0; g < 8; g++) {
      if (g == zeroStart) {
        out.append("::");
        g = zeroEnd;
        if (g >= 8) {
          break;
        }
      } else if (g > 0) {
        out.append(':');
      }
      out.append(Integer.toHexString(group(ip, g)));
    }
    return out.toString();
  }

  private static int hexDigit(char c) {
    if (c >= '0' && c <= '9') {
      return c - '0';
    } else if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    } else if (c >= 'A' && c <= 'F') {
      return c - 'A' + 10;
    }
    return -1;
  }

  private static int group(byte[] ip, int g) {
    return (ip[2 * g] & 0xff) << 8 | (ip[2 * g + 1] & 0xff);
  }
}
