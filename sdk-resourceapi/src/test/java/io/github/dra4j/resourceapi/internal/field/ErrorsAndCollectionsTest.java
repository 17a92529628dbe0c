package io.github.dra4j.resourceapi.internal.field;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.resourceapi.FieldError;
import io.github.dra4j.resourceapi.FieldErrorType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Error texts as the API server words them, and its checks of lists, sets and maps. */
class ErrorsAndCollectionsTest {

  private static final FieldPath PATH = FieldPath.root("spec", "devices");

  @Test
  void errorLinesAreGoFieldErrorError() {
    assertThat(Errors.required(PATH, "").toString()).isEqualTo("spec.devices: Required value");
    assertThat(Errors.required(PATH, "must be set").toString())
        .isEqualTo("spec.devices: Required value: must be set");
    assertThat(Errors.invalid(PATH, "GPU", "bad").toString())
        .isEqualTo("spec.devices: Invalid value: \"GPU\": bad");
    assertThat(Errors.invalid(PATH, null, "bad").toString())
        .isEqualTo("spec.devices: Invalid value: null: bad");
    assertThat(Errors.notSupported(PATH, GoValues.typed("Maybe"), List.of("False", "True")))
        .hasToString("spec.devices: Unsupported value: \"Maybe\": supported values: \"False\","
            + " \"True\"");
    assertThat(Errors.notSupported(PATH, "x", List.of()).toString())
        .isEqualTo("spec.devices: Unsupported value: \"x\"");
    assertThat(Errors.duplicate(PATH.index(1), "a").toString())
        .isEqualTo("spec.devices[1]: Duplicate value: \"a\"");
    assertThat(Errors.forbidden(PATH, "not allowed on this type").toString())
        .isEqualTo("spec.devices: Forbidden: not allowed on this type");
    assertThat(Errors.notFound(PATH, "k").toString()).isEqualTo("spec.devices: Not found: \"k\"");
    assertThat(Errors.internal(PATH, "boom").toString())
        .isEqualTo("spec.devices: Internal error: boom");
  }

  @Test
  void tooLongAndTooManyUseSingularForOne() {
    assertThat(Errors.tooLong(PATH, 63).toString())
        .isEqualTo("spec.devices: Too long: may not be more than 63 bytes");
    assertThat(Errors.tooLong(PATH, 1).toString())
        .isEqualTo("spec.devices: Too long: may not be more than 1 byte");
    assertThat(Errors.tooLong(PATH, -1).toString())
        .isEqualTo("spec.devices: Too long: value is too long");
    assertThat(Errors.tooMany(PATH, 129, 128).toString())
        .isEqualTo("spec.devices: Too many: 129: must have at most 128 items");
    assertThat(Errors.tooMany(PATH, 2, 1).toString())
        .isEqualTo("spec.devices: Too many: 2: must have at most 1 item");
    assertThat(Errors.tooMany(PATH, -1, -1).toString())
        .isEqualTo("spec.devices: Too many: has too many items");
  }

  @Test
  void bodyLeavesOutTheValueWhereGoDoes() {
    FieldError error = new FieldError(FieldErrorType.FORBIDDEN, "x", "\"v\"", "d");
    assertThat(error.body()).isEqualTo("Forbidden: d");
    assertThat(new FieldError(FieldErrorType.TYPE_INVALID, "x", "1", "d").body())
        .isEqualTo("Invalid value: 1: d");
    assertThat(new FieldError(FieldErrorType.INVALID, "x", null, "").body())
        .isEqualTo("Invalid value");
  }

  @Test
  void aTooLongListIsOneErrorAndItemsAreNotChecked() {
    List<String> items = new ArrayList<>(List.of("a", "", "b"));
    assertErrors(Collections.list(items, 2, this::nonEmpty, PATH), "TooMany spec.devices");
    assertErrors(Collections.list(items, 3, this::nonEmpty, PATH), "Required spec.devices[1]");
    assertErrors(Collections.list(null, 0, this::nonEmpty, PATH));
    assertErrors(Collections.list(items, -1, this::nonEmpty, PATH), "Required spec.devices[1]");
  }

  @Test
  void setsReportEveryRepeatAfterTheItemsOwnErrors() {
    List<String> items = List.of("a", "b", "a", "", "a", "");
    List<FieldError> errors = Collections.set(items, 8, this::nonEmpty, s -> s, PATH);
    assertErrors(errors, "Required spec.devices[3]", "Required spec.devices[5]",
        "Duplicate spec.devices[2]", "Duplicate spec.devices[4]", "Duplicate spec.devices[5]");
    assertThat(errors.get(2)).hasToString("spec.devices[2]: Duplicate value: \"a\"");
    assertErrors(Collections.set(items, 5, this::nonEmpty, s -> s, PATH), "TooMany spec.devices");
  }

  @Test
  void mapsCheckKeysAtTheMapAndValuesAtTheKey() {
    Map<String, String> map = new LinkedHashMap<>();
    map.put("BAD", "");
    map.put("a".repeat(70), "");
    FieldPath attributes = FieldPath.root("attributes");
    List<FieldError> errors = Collections.map(map, -1, 16,
        (key, path) -> key.equals("BAD") ? List.of(Errors.invalid(path, key, "upper")) : List.of(),
        this::nonEmpty, attributes);
    assertErrors(errors, "Invalid attributes", "Required attributes[BAD]",
        "Required attributes[aaaaaaa...aaaaaa]");
    assertErrors(Collections.map(map, 1, 16, (k, p) -> List.of(), this::nonEmpty, attributes),
        "TooMany attributes");
    assertThat(Collections.truncate("abcdefghijklmnopqrstuvwxyz", 10))
        .isEqualTo("abcdefg...uvwxyz");
    assertThat(Collections.truncate("a".repeat(97) + "b", 96)).hasSize(96).endsWith("ab");
    assertThat(Collections.truncate("short", 96)).isEqualTo("short");
  }

  private List<FieldError> nonEmpty(String value, FieldPath path) {
    return value.isEmpty() ? List.of(Errors.required(path, "")) : List.of();
  }
}
