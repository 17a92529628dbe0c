package io.github.dra4j.it;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The line between API and implementation, checked over every SDK module: a public type outside
 * an {@code internal} package names no internal type in what callers see, and a module uses
 * another module's {@code internal} package only where this test allows it; the examples use
 * none.
 */
class PublicApiTest {

  /**
   * Internal packages one module may use of another, modules by directory: both ends of the
   * kubelet protocol.
   */
  private static final Map<String, Set<String>> SHARED_INTERNALS = Map.of(
      "io.github.dra4j.kubelet.wire.internal",
      Set.of("sdk-kubeletplugin", "sdk-testing-kubelet"));

  private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

  @Test
  void publicTypesNameNoInternalType() throws Exception {
    List<String> leaks = new ArrayList<>();
    for (Class<?> anchor : SdkClasses.MODULES) {
      for (String name : SdkClasses.classNames(anchor)) {
        if (name.contains(".internal.") || name.endsWith("package-info")) {
          continue;
        }
        Class<?> type = Class.forName(name, false, anchor.getClassLoader());
        if (SdkClasses.isVisible(type.getModifiers()) && SdkClasses.isVisibleType(type)) {
          leaks.addAll(internalTypesIn(type));
        }
      }
    }
    assertThat(leaks).isEmpty();
  }

  @Test
  void modulesUseOnlyTheirOwnInternalsAndTheSharedOnes() throws IOException {
    Pattern internalImport = Pattern.compile(
        "^import (?:static )?(io\\.github\\.dra4j\\.[\\w.]*?\\.internal)\\b", Pattern.MULTILINE);
    List<String> violations = new ArrayList<>();
    // The SDK's modules, the test kit's, and the examples, which must get by on the public API
    // like any driver.
    try (Stream<Path> sdk = Files.list(ROOT);
        Stream<Path> testKit = Files.list(
            ROOT.resolve("testing"));
        Stream<Path> examples = Files.list(ROOT.resolve("examples"))) {
      List<Path> modules = Stream.of(sdk, testKit, examples).flatMap(s -> s)
          .filter(m -> Files.isDirectory(m.resolve("src/main/java"))).toList();
      assertThat(modules).as("the test kit and the examples are checked too")
          .contains(ROOT.resolve("testing/sdk-testing-kubelet"),
              ROOT.resolve("examples/gpu-driver"));
      for (Path module : modules) {
        String moduleName = module.getFileName().toString();
        Set<String> own = ownPackages(module.resolve("src/main/java"));
        try (Stream<Path> sources = Files.walk(module.resolve("src/main/java"))) {
          for (Path source : sources.filter(f -> f.toString().endsWith(".java")).toList()) {
            Matcher m = internalImport.matcher(Files.readString(source));
            while (m.find()) {
              String internal = m.group(1);
              boolean owned = own.stream().anyMatch(p -> p.startsWith(internal));
              boolean shared = SHARED_INTERNALS.getOrDefault(internal, Set.of())
                  .contains(moduleName);
              if (!owned && !shared) {
                violations.add(ROOT.relativize(source) + " imports " + internal);
              }
            }
          }
        }
      }
    }
    assertThat(violations).isEmpty();
  }

  private static List<String> internalTypesIn(Class<?> type) {
    List<String> found = new ArrayList<>();
    check(found, type, "extends", type.getGenericSuperclass());
    for (Type implemented : type.getGenericInterfaces()) {
      check(found, type, "implements", implemented);
    }
    for (Field field : type.getDeclaredFields()) {
      if (SdkClasses.isVisible(field.getModifiers())) {
        check(found, type, "field " + field.getName(), field.getGenericType());
      }
    }
    for (Constructor<?> constructor : type.getDeclaredConstructors()) {
      if (SdkClasses.isVisible(constructor.getModifiers())) {
        for (Type parameter : constructor.getGenericParameterTypes()) {
          check(found, type, "constructor", parameter);
        }
      }
    }
    for (Method method : type.getDeclaredMethods()) {
      if (!SdkClasses.isVisible(method.getModifiers()) || method.isSynthetic()) {
        continue;
      }
      check(found, type, method.getName() + " returns", method.getGenericReturnType());
      for (Type parameter : method.getGenericParameterTypes()) {
        check(found, type, method.getName() + " takes", parameter);
      }
      for (Type thrown : method.getGenericExceptionTypes()) {
        check(found, type, method.getName() + " throws", thrown);
      }
    }
    return found;
  }

  private static void check(List<String> found, Class<?> owner, String where, Type type) {
    if (type != null && type.getTypeName().contains(".internal.")) {
      found.add(owner.getName() + " " + where + " " + type.getTypeName());
    }
  }

  private static Set<String> ownPackages(Path sourceRoot) throws IOException {
    Set<String> packages = new TreeSet<>();
    try (Stream<Path> files = Files.walk(sourceRoot)) {
      files.filter(Files::isDirectory).forEach(d -> packages.add(
          sourceRoot.relativize(d).toString().replace('/', '.')));
    }
    return packages;
  }
}
