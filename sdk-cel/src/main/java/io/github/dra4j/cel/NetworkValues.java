package io.github.dra4j.cel;

import com.google.common.net.InetAddresses;
import java.math.BigInteger;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.Arrays;
import java.util.regex.Pattern;

/**
 * Values of the Kubernetes IP and CIDR libraries ({@code net.IP}, {@code net.CIDR}). Parsing only
 * accepts literal addresses (never a host name, so no DNS lookup), refuses IPv4-mapped IPv6
 * addresses and zones like Kubernetes, and prints the canonical form. Immutable.
 */
final class NetworkValues {

  /** Prefix lengths as Go's netip accepts them: decimal, no leading zero, at most 3 digits. */
  private static final Pattern PREFIX_BITS = Pattern.compile("0|[1-9][0-9]{0,2}");

  private NetworkValues() {}

  /** Parses a literal IP address, with a Kubernetes-like error text. */
  static IpAddress parseIp(String text) {
    if (text.indexOf('%') >= 0) {
      throw new IllegalArgumentException(
          "IP address with zone value is not allowed: " + '"' + text + '"');
    }
    InetAddress address;
    try {
      address = InetAddresses.forString(text);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "IP Address \"" + text + "\" parse error during conversion from string: ParseAddr(\""
              + text + "\"): unable to parse IP",
          e);
    }
    if (address instanceof Inet4Address && text.indexOf(':') >= 0) {
      throw new IllegalArgumentException(
          "IPv4-mapped IPv6 address \"" + text + "\" is not allowed");
    }
    return new IpAddress(address.getAddress());
  }

  /** Parses a CIDR such as {@code 10.0.0.0/8}. */
  static Cidr parseCidr(String text) {
    int slash = text.indexOf('/');
    if (slash < 0) {
      throw new IllegalArgumentException(
          "network address parse error during conversion from string: netip.ParsePrefix(\""
              + text + "\"): no '/'");
    }
    IpAddress ip = parseIp(text.substring(0, slash));
    String bits = text.substring(slash + 1);
    int prefix = PREFIX_BITS.matcher(bits).matches() ? Integer.parseInt(bits) : -1;
    if (prefix < 0 || prefix > ip.bytes.length * 8) {
      throw new IllegalArgumentException(
          "network address parse error during conversion from string: netip.ParsePrefix(\""
              + text + "\"): bad bits after slash: \"" + bits + "\"");
    }
    return new Cidr(ip, prefix);
  }

  /** A literal IPv4 or IPv6 address. */
  static final class IpAddress {
    private final byte[] bytes;

    IpAddress(byte[] bytes) {
      this.bytes = bytes.clone();
    }

    long family() {
      return bytes.length == 4 ? 4 : 6;
    }

    boolean isUnspecified() {
      return new BigInteger(1, bytes).signum() == 0;
    }

    boolean isLoopback() {
      return bytes.length == 4 ? (bytes[0] & 0xff) == 127 : isV6(1);
    }

    boolean isLinkLocalMulticast() {
      return bytes.length == 4
          ? (bytes[0] & 0xff) == 224 && bytes[1] == 0 && bytes[2] == 0
          : (bytes[0] & 0xff) == 0xff && bytes[1] == 0x02;
    }

    boolean isLinkLocalUnicast() {
      return bytes.length == 4
          ? (bytes[0] & 0xff) == 169 && (bytes[1] & 0xff) == 254
          : (bytes[0] & 0xff) == 0xfe && (bytes[1] & 0xc0) == 0x80;
    }

    boolean isMulticast() {
      return bytes.length == 4 ? (bytes[0] & 0xf0) == 0xe0 : (bytes[0] & 0xff) == 0xff;
    }

    boolean isGlobalUnicast() {
      boolean broadcast = bytes.length == 4
          && new BigInteger(1, bytes).equals(BigInteger.ONE.shiftLeft(32).subtract(BigInteger.ONE));
      return !broadcast && !isUnspecified() && !isLoopback() && !isMulticast()
          && !isLinkLocalUnicast();
    }

    private boolean isV6(int last) {
      for (int i = 0; i < 15; i++) {
        if (bytes[i] != 0) {
          return false;
        }
      }
      return bytes[15] == last;
    }

    BigInteger asNumber() {
      return new BigInteger(1, bytes);
    }

    int bits() {
      return bytes.length * 8;
    }

    IpAddress masked(int prefix) {
      BigInteger mask = BigInteger.ONE.shiftLeft(bits()).subtract(BigInteger.ONE)
          .shiftRight(prefix).not().and(BigInteger.ONE.shiftLeft(bits()).subtract(BigInteger.ONE));
      byte[] raw = asNumber().and(mask).toByteArray();
      byte[] out = new byte[bytes.length];
      int copy = Math.min(raw.length, out.length);
      System.arraycopy(raw, raw.length - copy, out, out.length - copy, copy);
      return new IpAddress(out);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof IpAddress ipAddress && Arrays.equals(bytes, ipAddress.bytes);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(bytes);
    }

    /** Returns the canonical text (RFC 5952 for IPv6). */
    @Override
    public String toString() {
      try {
        return InetAddresses.toAddrString(InetAddress.getByAddress(bytes));
      } catch (java.net.UnknownHostException e) {
        throw new IllegalStateException("address of length " + bytes.length, e);
      }
    }
  }

  /** An IP prefix: address and prefix length. */
  static final class Cidr {
    private final IpAddress ip;
    private final int prefixLength;

    Cidr(IpAddress ip, int prefixLength) {
      this.ip = ip;
      this.prefixLength = prefixLength;
    }

    IpAddress ip() {
      return ip;
    }

    long prefixLength() {
      return prefixLength;
    }

    Cidr masked() {
      return new Cidr(ip.masked(prefixLength), prefixLength);
    }

    boolean containsIp(IpAddress other) {
      return other.bits() == ip.bits()
          && other.masked(prefixLength).equals(ip.masked(prefixLength));
    }

    boolean containsCidr(Cidr other) {
      return other.prefixLength >= prefixLength && containsIp(other.ip);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Cidr cidr
          && ip.equals(cidr.ip)
          && prefixLength == cidr.prefixLength;
    }

    @Override
    public int hashCode() {
      return ip.hashCode() * 31 + prefixLength;
    }

    @Override
    public String toString() {
      return ip + "/" + prefixLength;
    }
  }
}
