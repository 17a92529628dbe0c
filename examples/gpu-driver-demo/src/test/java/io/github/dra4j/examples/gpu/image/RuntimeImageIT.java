package io.github.dra4j.examples.gpu.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The GPU driver's {@code image/build-runtime.sh}, what its Dockerfile runs, run here without
 * Docker on a JDK 25 (skipped with the reason where there is none): the jlink runtime of the
 * listed modules, the driver's AOT cache from a training run, and the script's own check that the
 * driver serves on that runtime with the cache required and writes nothing. Run by Failsafe after {@code package}
 * of this module, which comes after the driver's: it needs the driver's jar and this module's
 * demo jar (the training's API server and kubelet).
 */
class RuntimeImageIT {

  private static final Path DRIVER = Path.of("..", "gpu-driver").toAbsolutePath().normalize();
  private static final Path SCRIPT = DRIVER.resolve("image/build-runtime.sh");
  private static final Path DRIVER_JAR = DRIVER.resolve("target/gpu-driver.jar");
  private static final Path DEMO_JAR = Path.of("target", "gpu-driver-demo.jar").toAbsolutePath();

  @TempDir
  Path work;

  @Test
  void theImagesRuntimeServesTheDriverWithItsCacheRequiredAndWritesNothing() throws Exception {
    Path jdk = jdk25();
    Path out = work.resolve("image");

    Result build = run(jdk, Map.of("CYCLES", "5"), SCRIPT.toString(), DRIVER_JAR.toString(),
        DEMO_JAR.toString(), out.toString());

    // The script's verify step: a real run with -XX:AOTMode=on, no [aot]/[cds] message, no file
    // written under the output; it exits non-zero otherwise.
    assertThat(build.status()).as(build.output()).isZero();
    assertThat(build.output()).contains("build-runtime: verified");
    String release = Files.readString(out.resolve("java/release"));
    assertThat(release).contains("java.net.http", "jdk.unsupported")
        .doesNotContain("java.desktop", "jdk.compiler", "jdk.jlink");
    assertThat(out.resolve("java/include")).doesNotExist();
    assertThat(out.resolve("app/gpu-driver.aot")).isNotEmptyFile();
    assertThat(out.resolve("app/lib/libjnidispatch.so")).isNotEmptyFile();
    assertThat(Files.readAllLines(out.resolve("app/jvm.options"))).contains(
        "-XX:AOTCache=" + out.resolve("app/gpu-driver.aot"), "-XX:+UseCompactObjectHeaders",
        "-Djna.boot.library.path=" + out.resolve("app/lib"), "-Djna.nounpack=true");

    // The image's entry point, as the pod runs it.
    Result help = runDriver(out, "--help");
    assertThat(help.status()).as(help.output()).isZero();
    assertThat(help.output()).contains("kubelet-plugin").doesNotContain("[aot]", "[cds]");

    // A jar that is not the one the cache was made from (an upgrade with the old cache: what a
    // cache written at run time became) is refused with the cache required, not used silently.
    Files.setLastModifiedTime(out.resolve("app/gpu-driver.jar"),
        FileTime.from(Instant.now().plusSeconds(3600)));
    Result stale = runDriver(out, "-XX:AOTMode=on", "--help");
    assertThat(stale.status()).as(stale.output()).isNotZero();
    assertThat(stale.output()).contains("[aot]");
  }

  @Test
  void aModuleTheJarNeedsThatTheListLacksFailsTheBuildNamingIt() throws Exception {
    Path jdk = jdk25();
    Path image = Files.createDirectories(work.resolve("image"));
    for (String file : List.of("build-runtime.sh", "TrainingRun.java", "runtime-modules.txt")) {
      Files.copy(SCRIPT.resolveSibling(file), image.resolve(file),
          StandardCopyOption.COPY_ATTRIBUTES);
    }
    Path list = image.resolve("runtime-modules.txt");
    Files.write(list, Files.readAllLines(list).stream()
        .filter(line -> !line.equals("java.net.http")).toList());

    Result modules = run(jdk, Map.of(), image.resolve("build-runtime.sh").toString(), "modules",
        DRIVER_JAR.toString());

    assertThat(modules.status()).isNotZero();
    assertThat(modules.output()).contains("needs java.net.http, which", list.toString());
  }

  /** The driver as the image's entry point runs it: {@code java @jvm.options -jar ...}. */
  private static Result runDriver(Path out, String... arguments) throws Exception {
    List<String> command = new ArrayList<>(List.of(out.resolve("java/bin/java").toString(),
        "@" + out.resolve("app/jvm.options")));
    List<String> rest = new ArrayList<>(List.of(arguments));
    String last = rest.remove(rest.size() - 1);
    command.addAll(rest);
    command.addAll(List.of("-jar", out.resolve("app/gpu-driver.jar").toString(), last));
    return run(null, Map.of(), command.toArray(String[]::new));
  }

  private static Result run(Path jdk, Map<String, String> environment, String... command)
      throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().remove("JAVA_TOOL_OPTIONS");
    builder.environment().remove("JDK_JAVA_OPTIONS");
    if (jdk != null) {
      builder.environment().put("JAVA_HOME", jdk.toString());
    }
    builder.environment().putAll(environment);
    Process process = builder.start();
    String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(process.waitFor(600, TimeUnit.SECONDS)).isTrue();
    return new Result(process.exitValue(), output);
  }

  private record Result(int status, String output) {}

  /**
   * A JDK 25 or newer with jlink: {@code -Djdk25.home}, {@code JDK25_HOME}, the test's own JVM
   * or Temurin 25 where Debian's packages put it; the test is skipped without one.
   */
  private static Path jdk25() {
    Optional<Path> found = Stream.of(System.getProperty("jdk25.home"),
        System.getenv("JDK25_HOME"),
        Runtime.version().feature() >= 25 ? System.getProperty("java.home") : null,
        "/usr/lib/jvm/temurin-25-jdk-amd64")
        .filter(home -> home != null && !home.isBlank()).map(Path::of)
        .filter(home -> Files.isExecutable(home.resolve("bin/jlink"))).findFirst();
    assumeTrue(found.isPresent(), "no JDK 25 with jlink (set -Djdk25.home or JDK25_HOME): the"
        + " image's runtime and AOT cache need one");
    return found.get();
  }
}
