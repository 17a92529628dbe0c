package io.github.dra4j.examples.gpu.nvml.driverfiles;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * A glibc linker cache ({@code /etc/ld.so.cache}) read defensively, as untrusted input: the
 * entries of its current format ({@code glibc-ld.so.cache} version {@code 1.1}, written by every
 * glibc since 2.32 and, after an old-format table, by older ones in their default "compat"
 * format). A file of the old format only ({@code ld.so-1.7.0}) is refused. Immutable.
 *
 * <p>The format, as this reader relies on it: a 48-byte header (17-byte magic, 3-byte version,
 * then 32-bit entry count, string table length, one flags byte telling the byte order, 3 padding
 * bytes, a 32-bit extension offset and 12 unused bytes), then the entries of 24 bytes each
 * (32-bit flags, key and value string offsets, 32-bit OS version, 64-bit hardware capabilities),
 * then NUL-terminated strings. String offsets count from the header's first byte. Before the
 * header, a compat file has the old 16-byte header and 12-byte entries, padded to 8 bytes.
 */
public final class LdCache {

  /** The largest cache read: real ones are well below 1 MiB. */
  public static final int MAX_BYTES = 16 * 1024 * 1024;

  /** The longest string accepted (the kernel's PATH_MAX). */
  static final int MAX_STRING = 4096;

  private static final byte[] OLD_MAGIC = "ld.so-1.7.0".getBytes(StandardCharsets.US_ASCII);
  private static final byte[] NEW_MAGIC = "glibc-ld.so.cache".getBytes(StandardCharsets.US_ASCII);
  private static final String NEW_VERSION = "1.1";
  private static final int OLD_HEADER = 16;
  private static final int OLD_ENTRY = 12;
  private static final int NEW_HEADER = 48;
  private static final int NEW_ENTRY = 24;

  /** The entry's type bits: an ELF library (plain, or linked against glibc 6). */
  private static final int TYPE_MASK = 0xff;
  private static final int TYPE_ELF = 1;
  private static final int TYPE_ELF_LIBC6 = 3;
  private static final int ARCH_MASK = 0xff00;

  private final List<Entry> entries;
  private final int skipped;

  private LdCache(List<Entry> entries, int skipped) {
    this.entries = List.copyOf(entries);
    this.skipped = skipped;
  }

  /**
   * One library of the cache.
   *
   * @param flags the entry's flags: type in the low byte, architecture in the next
   * @param key the name the loader looks up, usually the SONAME ({@code libcuda.so.1})
   * @param value the library's path inside the root the cache was made for
   */
  public record Entry(int flags, String key, String value) {

    /**
     * Whether this is an ELF library built for the architecture with the given cache flag.
     *
     * @param architectureFlag the flag, from {@link LdCache#architectureFlag(String)}
     * @return true if it is
     */
    public boolean isElfFor(int architectureFlag) {
      int type = flags & TYPE_MASK;
      return (type == TYPE_ELF || type == TYPE_ELF_LIBC6)
          && (flags & ARCH_MASK) == architectureFlag;
    }
  }

  /**
   * The cache flag of 64-bit libraries of a Java {@code os.arch}: {@code amd64} or {@code
   * x86_64}, {@code aarch64}, {@code ppc64le}.
   *
   * @param osArch the architecture, for example {@code System.getProperty("os.arch")}
   * @return the flag, or empty for an architecture the reader does not know
   */
  public static OptionalInt architectureFlag(String osArch) {
    return switch (osArch.toLowerCase(Locale.ROOT)) {
      case "amd64", "x86_64" -> OptionalInt.of(0x0300);
      case "aarch64", "arm64" -> OptionalInt.of(0x0a00);
      case "ppc64le", "ppc64" -> OptionalInt.of(0x0500);
      default -> OptionalInt.empty();
    };
  }

  /**
   * Reads and parses a cache file of at most {@link #MAX_BYTES}.
   *
   * @param file the cache
   * @return the cache
   * @throws LdCacheException if the file is too large or not a usable cache (naming the file)
   * @throws IOException if it cannot be read
   */
  public static LdCache read(Path file) throws IOException {
    byte[] data;
    try (InputStream in = Files.newInputStream(file)) {
      data = in.readNBytes(MAX_BYTES + 1);
    }
    if (data.length > MAX_BYTES) {
      throw new LdCacheException(file + " is larger than " + MAX_BYTES
          + " bytes, too large for a linker cache");
    }
    try {
      return parse(data);
    } catch (LdCacheException e) {
      throw new LdCacheException(file + ": " + e.getMessage());
    }
  }

  /**
   * Parses a cache. Entries whose strings are not UTF-8 or whose value is not an absolute path
   * are skipped (see {@link #skipped()}); anything out of bounds refuses the whole cache.
   *
   * @param data the file's bytes
   * @return the cache
   * @throws LdCacheException if the bytes are not a usable cache, saying why
   */
  public static LdCache parse(byte[] data) throws LdCacheException {
    if (data.length > MAX_BYTES) {
      throw new LdCacheException("larger than " + MAX_BYTES + " bytes");
    }
    int base = 0;
    if (startsWith(data, 0, OLD_MAGIC)) {
      base = afterOldTable(data);
    }
    if (base > 0 && !startsWith(data, base, NEW_MAGIC)) {
      throw oldFormatOnly(data, base);
    }
    if (!startsWith(data, base, NEW_MAGIC)) {
      throw new LdCacheException("not a glibc linker cache (no \"glibc-ld.so.cache\" header at"
          + " offset " + base + ", " + data.length + " bytes)");
    }
    if (data.length - base < NEW_HEADER) {
      throw new LdCacheException("truncated: " + data.length + " bytes, the header needs "
          + (base + NEW_HEADER));
    }
    String version = new String(data, base + NEW_MAGIC.length, 3, StandardCharsets.ISO_8859_1);
    if (!version.equals(NEW_VERSION)) {
      throw new LdCacheException("format version \"" + printable(version) + "\", only \""
          + NEW_VERSION + "\" is known");
    }
    ByteBuffer buffer = ByteBuffer.wrap(data).order(byteOrder(data[base + 28]));
    long count = Integer.toUnsignedLong(buffer.getInt(base + 20));
    int room = (data.length - base - NEW_HEADER) / NEW_ENTRY;
    if (count > room) {
      throw new LdCacheException("truncated or corrupt: the header counts " + count
          + " entries, the file has room for " + room);
    }
    long stringsEnd = base + NEW_HEADER + count * NEW_ENTRY
        + Integer.toUnsignedLong(buffer.getInt(base + 24));
    if (stringsEnd > data.length) {
      throw new LdCacheException("truncated: the string table ends at byte " + stringsEnd
          + ", the file has " + data.length);
    }
    List<Entry> entries = new ArrayList<>((int) count);
    int skipped = 0;
    for (int i = 0; i < count; i++) {
      int at = base + NEW_HEADER + i * NEW_ENTRY;
      int flags = buffer.getInt(at);
      String key = string(data, base, buffer.getInt(at + 4), i, "key");
      String value = string(data, base, buffer.getInt(at + 8), i, "value");
      if (key == null || value == null || key.isEmpty() || !value.startsWith("/")) {
        skipped++;
      } else {
        entries.add(new Entry(flags, key, value));
      }
    }
    return new LdCache(entries, skipped);
  }

  /**
   * The entries, in the cache's order.
   *
   * @return the entries
   */
  public List<Entry> entries() {
    return entries;
  }

  /**
   * How many entries were skipped for a key or value that is not UTF-8 or a value that is not
   * an absolute path.
   *
   * @return the count
   */
  public int skipped() {
    return skipped;
  }

  private static int afterOldTable(byte[] data) throws LdCacheException {
    if (data.length < OLD_HEADER) {
      throw new LdCacheException("truncated old-format header: " + data.length + " bytes");
    }
    long oldCount = Integer.toUnsignedLong(ByteBuffer.wrap(data).order(ByteOrder.nativeOrder())
        .getInt(OLD_MAGIC.length + 1));
    long end = OLD_HEADER + oldCount * OLD_ENTRY;
    long aligned = (end + 7) & ~7L;
    if (aligned + NEW_MAGIC.length > data.length) {
      throw oldFormatOnly(data, aligned);
    }
    return (int) aligned;
  }

  private static LdCacheException oldFormatOnly(byte[] data, long offset) {
    return new LdCacheException("an old-format (\"ld.so-1.7.0\") cache without the current"
        + " format after it (none at offset " + offset + ", " + data.length + " bytes); only"
        + " \"glibc-ld.so.cache1.1\" is read");
  }

  private static ByteOrder byteOrder(byte flags) throws LdCacheException {
    return switch (flags) {
      case 0 -> ByteOrder.nativeOrder();
      case 2 -> ByteOrder.LITTLE_ENDIAN;
      case 3 -> ByteOrder.BIG_ENDIAN;
      default -> throw new LdCacheException("byte order flag " + (flags & 0xff)
          + " in the header (0 native, 2 little or 3 big endian expected)");
    };
  }

  /** The NUL-terminated string at base + offset; null if it is not UTF-8. */
  private static String string(byte[] data, int base, int offset, int entry, String what)
      throws LdCacheException {
    long start = base + Integer.toUnsignedLong(offset);
    if (start >= data.length) {
      throw new LdCacheException("entry " + entry + ": " + what + " offset "
          + Integer.toUnsignedLong(offset) + " is beyond the end of the file (" + data.length
          + " bytes)");
    }
    int from = (int) start;
    int limit = (int) Math.min(data.length, start + MAX_STRING + 1);
    for (int end = from; end < limit; end++) {
      if (data[end] == 0) {
        try {
          return StandardCharsets.UTF_8.newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(data, from, end - from)).toString();
        } catch (CharacterCodingException e) {
          return null;
        }
      }
    }
    throw new LdCacheException("entry " + entry + ": " + what + " at offset " + from
        + " has no terminating NUL within " + MAX_STRING + " bytes or before the end of the"
        + " file");
  }

  private static boolean startsWith(byte[] data, int at, byte[] prefix) {
    if (at < 0 || data.length - at < prefix.length) {
      return false;
    }
    for (int i = 0; i < prefix.length; i++) {
      if (data[at + i] != prefix[i]) {
        return false;
      }
    }
    return true;
  }

  private static String printable(String text) {
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      out.append(c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\x%02x", (int) c));
    }
    return out.toString();
  }
}
