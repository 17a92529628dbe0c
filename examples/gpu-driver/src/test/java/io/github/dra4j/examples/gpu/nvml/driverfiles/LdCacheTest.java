package io.github.dra4j.examples.gpu.nvml.driverfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.examples.gpu.NativeTools;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The linker-cache reader against caches the real {@code ldconfig} wrote for a fake driver root,
 * in each format it writes, and against damaged ones: what it reads equals what {@code ldconfig
 * -p} prints, and anything damaged is refused with an {@link LdCacheException} saying why, never
 * another exception.
 */
class LdCacheTest {

  private static final int X86_64 = 0x0300;
  private static final Pattern PRINTED = Pattern.compile(
      "^\\s+(\\S+) \\(libc6,x86-64\\) => (\\S+)$");

  @TempDir
  static Path dir;
  private static FakeDriverRoot root;

  @BeforeAll
  static void buildRoot() throws Exception {
    root = FakeDriverRoot.create(dir.resolve("root"));
  }

  @Test
  void readsWhatLdconfigPrintsOfTheCacheItWrote() throws Exception {
    Path cache = root.root().resolve("etc/ld.so.cache");

    LdCache read = LdCache.read(cache);

    assertThat(read.entries()).isNotEmpty().allSatisfy(e -> assertThat(e.isElfFor(
        LdCache.architectureFlag(System.getProperty("os.arch")).orElseThrow())).isTrue());
    assertThat(read.skipped()).isZero();
    if (System.getProperty("os.arch").equals("amd64")) {
      assertThat(read.entries()).extracting(e -> e.key() + " => " + e.value())
          .containsExactlyElementsOf(printed(cache));
    }
    assertThat(read.entries()).extracting(LdCache.Entry::key, LdCache.Entry::value)
        .contains(org.assertj.core.groups.Tuple.tuple("libcuda.so.1",
            root.libraryDir() + "/libcuda.so.1"));
  }

  @Test
  void readsTheCompatFormatAndRefusesTheOldFormatAlone() throws Exception {
    Path compat = ldconfig("compat");
    Path old = ldconfig("old");

    assertThat(LdCache.read(compat).entries())
        .isEqualTo(LdCache.read(root.root().resolve("etc/ld.so.cache")).entries());
    assertThatThrownBy(() -> LdCache.read(old)).isInstanceOf(LdCacheException.class)
        .hasMessageStartingWith(old + ": an old-format (\"ld.so-1.7.0\") cache without the"
            + " current format after it");
  }

  @Test
  void everyTruncationAndEveryFlippedByteIsReadOrRefusedNeverACrash() throws Exception {
    byte[] good = Files.readAllBytes(root.root().resolve("etc/ld.so.cache"));
    int entries = LdCache.parse(good).entries().size();
    ByteBuffer header = ByteBuffer.wrap(good).order(ByteOrder.LITTLE_ENDIAN);
    int stringsEnd = 48 + entries * 24 + header.getInt(24);
    for (int length = 0; length < good.length; length++) {
      String refusal = refusal(Arrays.copyOf(good, length));
      if (length < stringsEnd) {
        assertThat(refusal).as("cut at %d, before the strings end", length).isNotNull();
      } else {
        assertThat(refusal).as("cut at %d, in the extension after the strings", length)
            .isNull();
      }
    }
    Random random = new Random(25);
    for (int i = 0; i < 2000; i++) {
      byte[] bad = good.clone();
      bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
      try {
        assertThat(LdCache.parse(bad).entries().size()).isLessThanOrEqualTo(entries);
      } catch (LdCacheException e) {
        assertThat(e.getMessage()).isNotBlank();
      }
    }
  }

  @Test
  void damagedHeadersAreRefusedNamingWhatIsWrong() throws Exception {
    byte[] good = Files.readAllBytes(root.root().resolve("etc/ld.so.cache"));

    assertThat(refusal(Arrays.copyOf(good, 40))).isEqualTo("truncated: 40 bytes, the header"
        + " needs 48");
    assertThat(refusal("ELF? no".getBytes(StandardCharsets.US_ASCII)))
        .startsWith("not a glibc linker cache");
    byte[] version = good.clone();
    version[19] = '2';
    assertThat(refusal(version)).isEqualTo("format version \"1.2\", only \"1.1\" is known");
    byte[] count = good.clone();
    ByteBuffer.wrap(count).order(ByteOrder.LITTLE_ENDIAN).putInt(20, Integer.MAX_VALUE);
    assertThat(refusal(count)).startsWith("truncated or corrupt: the header counts 2147483647"
        + " entries, the file has room for ");
    byte[] order = good.clone();
    order[28] = 7;
    assertThat(refusal(order)).startsWith("byte order flag 7");
    byte[] key = good.clone();
    ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN).putInt(48 + 4, -1);
    assertThat(refusal(key)).isEqualTo("entry 0: key offset 4294967295 is beyond the end of the"
        + " file (" + good.length + " bytes)");
    byte[] unterminated = Arrays.copyOf(good, good.length + LdCache.MAX_STRING + 10);
    Arrays.fill(unterminated, good.length, unterminated.length, (byte) 'a');
    ByteBuffer.wrap(unterminated).order(ByteOrder.LITTLE_ENDIAN).putInt(48 + 8, good.length);
    assertThat(refusal(unterminated)).startsWith("entry 0: value at offset " + good.length
        + " has no terminating NUL within 4096 bytes");
  }

  @Test
  void aHugeFileIsRefusedWithoutReadingIt() throws Exception {
    Path huge = dir.resolve("huge.cache");
    try (RandomAccessFile file = new RandomAccessFile(huge.toFile(), "rw")) {
      file.setLength(LdCache.MAX_BYTES + 1L);
    }

    assertThatThrownBy(() -> LdCache.read(huge)).isInstanceOf(LdCacheException.class)
        .hasMessage(huge + " is larger than 16777216 bytes, too large for a linker cache");
  }

  @Test
  void architecturesMapToTheCacheFlagsOfTheir64BitLibraries() {
    assertThat(LdCache.architectureFlag("amd64")).hasValue(X86_64);
    assertThat(LdCache.architectureFlag("aarch64")).hasValue(0x0a00);
    assertThat(LdCache.architectureFlag("sparc")).isEmpty();
    assertThat(new LdCache.Entry(0x0303, "a", "/a").isElfFor(X86_64)).isTrue();
    assertThat(new LdCache.Entry(0x0003, "a", "/a").isElfFor(X86_64)).as("32-bit").isFalse();
    assertThat(new LdCache.Entry(0x0803, "a", "/a").isElfFor(X86_64)).as("x32").isFalse();
  }

  private static String refusal(byte[] data) {
    try {
      LdCache.parse(data);
      return null;
    } catch (LdCacheException e) {
      return e.getMessage();
    }
  }

  /** Writes the root's cache again in a format into a file of its own. */
  private static Path ldconfig(String format) throws IOException, InterruptedException {
    String name = "/etc/ld.so.cache." + format;
    run(NativeTools.ldconfig("the linker-cache tests compare with the real ldconfig"), "-X", "-c",
        format, "-r", root.root().toString(), "-f",
        "/etc/ld.so.conf", "-C", name);
    return root.root().resolve(name.substring(1));
  }

  /** {@code ldconfig -p}'s lines as {@code key => value}. */
  private static List<String> printed(Path cache) throws IOException, InterruptedException {
    List<String> lines = new ArrayList<>();
    for (String line : run(
        NativeTools.ldconfig("the linker-cache tests compare with the real ldconfig"), "-p", "-C",
        cache.toString()).split("\n", -1)) {
      Matcher m = PRINTED.matcher(line);
      if (m.matches()) {
        lines.add(m.group(1) + " => " + m.group(2));
      }
    }
    return lines;
  }

  private static String run(String... command) throws IOException, InterruptedException {
    Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(process.exitValue()).as(output).isZero();
    return output;
  }
}
