package ${package}.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ${package}.Claims;
import ${package}.DeviceDriver;
import io.github.dra4j.resourceclaim.config.ConfigException;
import io.github.dra4j.testing.webhook.AdmissionReviews;
import io.github.dra4j.webhook.AdmissionDecision;
import io.github.dra4j.webhook.AdmissionReviewHandler;
import org.junit.jupiter.api.Test;

/** The configuration API as the plugin and the webhook decode it: defaults, strictness, limits. */
class DriverConfigTest {

  private static final String DRIVER = DeviceDriver.DEFAULT_NAME;

  private static Object decode(String fields) {
    return DriverConfigs.SCHEME.decode("{\"apiVersion\": \"" + DriverConfigs.API_VERSION
        + "\", \"kind\": \"DriverConfig\"" + (fields.isEmpty() ? "" : ", " + fields) + "}");
  }

  @Test
  void leftOutFieldsTakeTheDefaults() {
    assertThat(decode("")).isEqualTo(new DriverConfig(Profile.Balanced, null))
        .isEqualTo(DriverConfig.DEFAULT);
    assertThat(decode("\"powerLimitWatts\": 400"))
        .isEqualTo(new DriverConfig(Profile.Balanced, 400));
  }

  @Test
  void decodingIsStrict() {
    assertThatThrownBy(() -> decode("\"profile\": \"Turbo\""))
        .isInstanceOf(ConfigException.class).hasMessageContaining("profile");
    assertThatThrownBy(() -> decode("\"powerLimit\": 100"))
        .isInstanceOf(ConfigException.class).hasMessageContaining("powerLimit");
    assertThatThrownBy(() -> decode("\"powerLimitWatts\": \"100\""))
        .isInstanceOf(ConfigException.class).hasMessageContaining("powerLimitWatts");
  }

  @Test
  void thePowerLimitHasItsRangeAndACapForPowerSaving() {
    assertThatThrownBy(() -> decode("\"powerLimitWatts\": 20"))
        .hasMessageContaining("powerLimitWatts: must be from 50 to 400 watts, got 20");
    assertThat(decode("\"profile\": \"PowerSaving\", \"powerLimitWatts\": 150"))
        .isEqualTo(new DriverConfig(Profile.PowerSaving, 150));
    assertThatThrownBy(() -> decode("\"profile\": \"PowerSaving\", \"powerLimitWatts\": 151"))
        .hasMessageContaining("must be at most 150 watts with profile PowerSaving, got 151");
  }

  @Test
  void theWebhookAllowsAValidConfigurationAndIgnoresOtherDrivers() {
    AdmissionReviewHandler handler = AdmissionReviewHandler.of(DRIVER, DriverConfigs.SCHEME);

    AdmissionDecision valid = handler.handle(AdmissionReviews.create(Claims.withConfig("ok",
        DRIVER, DRIVER, "{\"profile\": \"Performance\", \"powerLimitWatts\": 250}")));
    AdmissionDecision otherDriver = handler.handle(AdmissionReviews.create(Claims.withConfig(
        "theirs", DRIVER, "other." + DRIVER, "{\"profile\": \"Turbo\"}")));

    assertThat(valid.allowed()).as(valid.problems().toString()).isTrue();
    assertThat(otherDriver.allowed()).as("not this driver's configuration").isTrue();
  }

  @Test
  void theWebhookDeniesAnInvalidConfigurationNamingTheField() {
    AdmissionDecision decision = AdmissionReviewHandler.of(DRIVER, DriverConfigs.SCHEME)
        .handle(AdmissionReviews.create(Claims.withConfig("bad", DRIVER, DRIVER,
            "{\"profile\": \"Turbo\"}")));

    assertThat(decision.allowed()).isFalse();
    assertThat(decision.problems()).singleElement().satisfies(problem ->
        assertThat(problem.path()).startsWith("spec.devices.config[0].opaque.parameters"));
    assertThat(decision.problems().get(0).toString()).contains("Turbo");
  }
}
