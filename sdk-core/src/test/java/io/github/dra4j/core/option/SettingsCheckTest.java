package io.github.dra4j.core.option;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.github.dra4j.core.name.NameRules;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class SettingsCheckTest {

  private enum Backend {
    SIMULATED, NVML
  }

  @ParameterizedTest
  @NullSource
  @ValueSource(strings = {"", "   ", "\t"})
  void anEmptyValueIsUnsetAndNoProblem(String value) {
    SettingsCheck check = new SettingsCheck();

    assertThat(check.text("A", value)).isEmpty();
    assertThat(check.integer("B", value, 0, 9)).isEmpty();
    assertThat(check.port("C", value)).isEmpty();
    assertThat(check.bool("D", value)).isEmpty();
    assertThat(check.oneOf("E", value, Backend.class)).isEmpty();
    assertThat(check.absolutePath("F", value)).isEmpty();
    assertThat(check.decimal("G", value, n -> n > 0, "want more")).isEmpty();
    assertThat(check.integers("H", value, 0, 9)).isEmpty();
    assertThat(check.valid("I", value, NameRules::driverName)).isEmpty();
    assertThat(check.problems()).isEmpty();
    check.throwIfProblems();
  }

  @Test
  void goodValuesAreTrimmedAndConverted() {
    SettingsCheck check = new SettingsCheck();

    assertThat(check.text("A", "  x ")).contains("x");
    assertThat(check.integer("B", " 7 ", 0, 9)).isEqualTo(OptionalInt.of(7));
    assertThat(check.integer("B", "0", 0, 9)).isEqualTo(OptionalInt.of(0));
    assertThat(check.integer("B", "9", 0, 9)).isEqualTo(OptionalInt.of(9));
    assertThat(check.port("C", "65535")).isEqualTo(OptionalInt.of(65535));
    assertThat(check.bool("D", "TRUE")).contains(true);
    assertThat(check.bool("D", "false")).contains(false);
    assertThat(check.oneOf("E", "Nvml", Backend.class)).contains(Backend.NVML);
    assertThat(check.absolutePath("F", "/var/lib/../run/cdi/")).contains(Path.of("/var/run/cdi"));
    assertThat(check.decimal("G", "2.5", n -> n > 0, "want more"))
        .isEqualTo(OptionalDouble.of(2.5));
    assertThat(check.integers("H", "13, 31,,48", 0, 100)).containsExactly(13, 31, 48);
    assertThat(check.valid("I", " gpu.example.com ", NameRules::driverName))
        .contains("gpu.example.com");
    assertThat(check.required("J", "x", "the node")).contains("x");
    assertThat(check.problems()).isEmpty();
  }

  @Test
  void everyMalformedValueIsNamedWithItsVariableAndValueInOneMessage() {
    SettingsCheck check = new SettingsCheck();

    assertThat(check.integer("NUM_DEVICES", "many", 0, 128)).isEmpty();
    assertThat(check.integer("NUM_DEVICES", "129", 0, 128)).isEmpty();
    assertThat(check.integer("NUM_DEVICES", "99999999999", 0, 128)).isEmpty();
    assertThat(check.port("WEBHOOK_PORT", "70000")).isEmpty();
    assertThat(check.bool("SHARING", "yes")).isEmpty();
    assertThat(check.oneOf("GPU_BACKEND", " cuda ", Backend.class)).isEmpty();
    assertThat(check.absolutePath("CDI_ROOT", "var/run/cdi")).isEmpty();
    assertThat(check.decimal("QPS", "NaN", n -> n > 0, "want a number above 0")).isEmpty();
    assertThat(check.decimal("QPS", "-1", n -> n > 0, "want a number above 0")).isEmpty();
    assertThat(check.integers("XIDS", "13,x,31", 0, 100)).containsExactly(13, 31);
    assertThat(check.valid("DRIVER_NAME", "Not_A_Name", NameRules::driverName)).isEmpty();
    assertThat(check.required("NODE_NAME", null, "the node this plugin runs on")).isEmpty();
    check.refuse("MODE", "fast", "want slow");

    List<String> problems = check.problems();
    assertThat(problems).containsExactly(
        "NUM_DEVICES=\"many\": want a whole number from 0 to 128",
        "NUM_DEVICES=\"129\": want a whole number from 0 to 128",
        "NUM_DEVICES=\"99999999999\": want a whole number from 0 to 128",
        "WEBHOOK_PORT=\"70000\": want a port from 0 to 65535",
        "SHARING=\"yes\": want true or false",
        "GPU_BACKEND=\"cuda\": want simulated or nvml",
        "CDI_ROOT=\"var/run/cdi\": want an absolute path",
        "QPS=\"NaN\": want a number above 0",
        "QPS=\"-1\": want a number above 0",
        "XIDS=\"x\": want a whole number from 0 to 100",
        "DRIVER_NAME=\"Not_A_Name\": " + NameRules.driverName("Not_A_Name").orElseThrow(),
        "NODE_NAME is required: the node this plugin runs on",
        "MODE=\"fast\": want slow");
    assertThatThrownBy(check::throwIfProblems).isInstanceOf(IllegalArgumentException.class)
        .hasMessage(String.join("; ", problems));
    assertThatThrownBy(() -> problems.add("x")).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void aRuleSeesTheTrimmedValue() {
    SettingsCheck check = new SettingsCheck();

    assertThat(check.valid("X", "  a  ", value -> value.equals("a") ? Optional.empty()
        : Optional.of("untrimmed"))).contains("a");
    assertThat(check.problems()).isEmpty();
  }
}
