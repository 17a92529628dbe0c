package io.github.dra4j.resourceapi.internal.device;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.internal.field.FieldPath;
import io.github.dra4j.resourceapi.internal.meta.CoreRules;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * dra4j-core's {@link NameRules}, which drivers and the kubelet plugin check names with, answers
 * every value as these rules of the server do: the same errors, in the same order, with the same
 * texts (NameRules gives them without the field path, joined by {@code ", "}).
 */
class NameRulesAgreementTest {

  private static final FieldPath PATH = FieldPath.root("f");

  private static List<String> values() {
    List<String> values = new ArrayList<>(List.of("", "a", "A", "gpu-0", "GPU-0", "-a", "a-",
        "a.b", "a..b", ".a", "a.", "a/b", "/a", "a/", "a//b", "a/b/c", "Gpu.Example.com",
        "gpu.example.com/memory", "gpu.example.com/Memory_MiB", "example.com/1st", "ex_ample/x",
        "_x", "x_", "a b", "a\nb", "\u00e4", "a\"b", "a\\b", "Example.com/x", "example.com/-x",
        "a".repeat(32), "a".repeat(33), "a".repeat(63), "a".repeat(64), "A".repeat(64),
        "a".repeat(62) + "\u00e4", "a".repeat(60) + ".com", "a".repeat(253), "a".repeat(254),
        ("a".repeat(50) + "/").repeat(5) + "abc", "x".repeat(64) + "/y",
        "a".repeat(63) + "/" + "b".repeat(33), "k8s.io/" + "n".repeat(64)));
    String alphabet = "aZ09-._/ \u00e9";
    Random random = new Random(24);
    for (int n = 0; n < 20_000; n++) {
      int length = random.nextInt(n % 500 == 0 ? 300 : 10);
      StringBuilder value = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        value.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      values.add(value.toString());
    }
    return values;
  }

  private static void agree(Function<String, Optional<String>> nameRule,
      BiFunction<String, FieldPath, List<FieldError>> serverRule) {
    for (String value : values()) {
      List<FieldError> errors = serverRule.apply(value, PATH);
      Optional<String> expected = errors.isEmpty() ? Optional.empty()
          : Optional.of(errors.stream().map(FieldError::body).collect(Collectors.joining(", ")));
      assertThat(nameRule.apply(value)).as("value \"%s\"", value).isEqualTo(expected);
    }
  }

  @Test
  void dnsLabel() {
    agree(NameRules::dnsLabel, CoreRules::dnsLabel);
  }

  @Test
  void dnsSubdomain() {
    agree(value -> NameRules.dnsSubdomain(value, NameRules.DNS_SUBDOMAIN_MAX),
        CoreRules::dnsSubdomain);
  }

  @Test
  void driverName() {
    agree(NameRules::driverName, DeviceFieldRules::driverName);
  }

  @Test
  void poolName() {
    agree(NameRules::poolName, DeviceFieldRules::poolName);
  }

  @Test
  void qualifiedName() {
    agree(NameRules::qualifiedName, DeviceFieldRules::qualifiedName);
  }

  @Test
  void labelKey() {
    agree(NameRules::labelKey, CoreRules::labelName);
  }

  @Test
  void labelValue() {
    agree(NameRules::labelValue, CoreRules::labelValue);
  }
}
