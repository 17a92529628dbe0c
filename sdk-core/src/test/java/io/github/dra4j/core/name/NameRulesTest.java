package io.github.dra4j.core.name;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The rules give the API server's answers (texts of NameFormats, the server's error types and
 * order); the UID rule, dra4j's own, at its boundaries; the fast checks agree with the formats.
 */
class NameRulesTest {

  private static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case"
      + " alphanumeric characters or '-', and must start and end with an alphanumeric character"
      + " (e.g. 'my-name',  or '123-abc', regex used for validation is"
      + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  private static final String SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of"
      + " lower case alphanumeric characters, '-' or '.', and must start and end with an"
      + " alphanumeric character (e.g. 'example.com', regex used for validation is"
      + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String C_IDENTIFIER_MSG = "a valid C identifier must start with alphabetic"
      + " character or '_', followed by a string of alphanumeric characters or '_' (e.g."
      + " 'my_name',  or 'MY_NAME',  or 'MyName', regex used for validation is"
      + " '[A-Za-z_][A-Za-z0-9_]*')";
  private static final String NAME_PART_MSG = "name part must consist of alphanumeric"
      + " characters, '-', '_' or '.', and must start and end with an alphanumeric character"
      + " (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is"
      + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";
  private static final String LABEL_VALUE_MSG = "a valid label must be an empty string or consist"
      + " of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric"
      + " character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is"
      + " '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";

  @Test
  void dnsLabelIsTheServersValidateDns1123Label() {
    assertThat(NameRules.dnsLabel("gpu-0")).isEmpty();
    assertThat(NameRules.dnsLabel("GPU-0")).contains("Invalid value: \"GPU-0\": " + LABEL_MSG);
    // Empty is the format's Invalid, not Required; null is taken as empty.
    assertThat(NameRules.dnsLabel("")).contains("Invalid value: \"\": " + LABEL_MSG);
    assertThat(NameRules.dnsLabel(null)).contains("Invalid value: \"\": " + LABEL_MSG);
    assertThat(NameRules.dnsLabel("a.b")).contains("Invalid value: \"a.b\": must not contain"
        + " dots");
    String long64 = "a".repeat(64);
    assertThat(NameRules.dnsLabel(long64)).contains("Invalid value: \"" + long64 + "\": must be"
        + " no more than 63 characters");
    String longBad = "A".repeat(64);
    assertThat(NameRules.dnsLabel(longBad)).contains("Invalid value: \"" + longBad + "\": must be"
        + " no more than 63 characters, Invalid value: \"" + longBad + "\": " + LABEL_MSG);
  }

  @Test
  void lengthsAreUtf8BytesAndValuesArePrintedAsGoQuotesThem() {
    // 62 ASCII characters and one two-byte letter: 63 characters, 64 bytes.
    String value = "a".repeat(62) + "\u00e4";
    assertThat(NameRules.dnsLabel(value)).contains("Invalid value: \"" + value + "\": must be no"
        + " more than 63 characters, Invalid value: \"" + value + "\": " + LABEL_MSG);
    assertThat(NameRules.dnsLabel("a\nb\"")).contains("Invalid value: \"a\\nb\\\"\": "
        + LABEL_MSG);
    assertThat(NameRules.driverName("a".repeat(62) + ".\u00e4")).hasValueSatisfying(
        problem -> assertThat(problem).startsWith("Too long: may not be more than 63 bytes, "));
  }

  @Test
  void dnsSubdomainIsTheServersValidateDns1123SubdomainWithAnOptionalLowerLimit() {
    assertThat(NameRules.dnsSubdomain("claim.example", NameRules.DNS_SUBDOMAIN_MAX)).isEmpty();
    assertThat(NameRules.dnsSubdomain("", NameRules.DNS_SUBDOMAIN_MAX))
        .contains("Invalid value: \"\": " + SUBDOMAIN_MSG);
    String long254 = "a".repeat(254);
    assertThat(NameRules.dnsSubdomain(long254, NameRules.DNS_SUBDOMAIN_MAX))
        .contains("Invalid value: \"" + long254 + "\": must be no more than 253 characters");
    assertThat(NameRules.dnsSubdomain("a".repeat(11), 10))
        .contains("Too long: may not be more than 10 bytes");
    assertThat(NameRules.dnsSubdomain("A".repeat(11), 10)).contains("Too long: may not be more"
        + " than 10 bytes, Invalid value: \"AAAAAAAAAAA\": " + SUBDOMAIN_MSG);
  }

  @Test
  void driverNameIsTheCsiDriverNameRuleWhichAcceptsUpperCase() {
    assertThat(NameRules.driverName("gpu.example.com")).isEmpty();
    assertThat(NameRules.driverName("GPU.Example.com")).isEmpty();
    assertThat(NameRules.isDnsSubdomain("GPU.Example.com", NameRules.DRIVER_NAME_MAX)).isFalse();
    assertThat(NameRules.driverName("")).contains("Required value");
    assertThat(NameRules.driverName(null)).contains("Required value");
    assertThat(NameRules.driverName("Not_A_Name")).contains("Invalid value: \"Not_A_Name\": "
        + SUBDOMAIN_MSG);
    String long64 = "a".repeat(60) + ".com";
    assertThat(NameRules.driverName(long64)).contains("Too long: may not be more than 63 bytes");
    assertThat(NameRules.driverName("-" + long64)).contains("Too long: may not be more than 63"
        + " bytes, Invalid value: \"-" + long64 + "\": " + SUBDOMAIN_MSG);
  }

  @Test
  void poolNameReportsEachBadPartWithThePartAsTheValue() {
    assertThat(NameRules.poolName("node-1")).isEmpty();
    assertThat(NameRules.poolName("node-1/gpus.a")).isEmpty();
    assertThat(NameRules.poolName("")).contains("Required value");
    assertThat(NameRules.poolName("Node/ok/-x")).contains("Invalid value: \"Node\": "
        + SUBDOMAIN_MSG + ", Invalid value: \"-x\": " + SUBDOMAIN_MSG);
    assertThat(NameRules.poolName("a//b")).contains("Invalid value: \"\": " + SUBDOMAIN_MSG);
    String long254 = ("a".repeat(50) + "/").repeat(5) + "abc";
    assertThat(NameRules.poolName(long254)).contains("Too long: may not be more than 253 bytes");
  }

  @Test
  void qualifiedNameIsACIdentifierOptionallyAfterADriverNameDomain() {
    assertThat(NameRules.qualifiedName("model")).isEmpty();
    assertThat(NameRules.qualifiedName("gpu.example.com/memory_MiB")).isEmpty();
    assertThat(NameRules.qualifiedName("Example.com/x")).isEmpty();
    assertThat(NameRules.qualifiedName("")).contains("Invalid value: \"\": " + C_IDENTIFIER_MSG);
    assertThat(NameRules.qualifiedName("1st")).contains("Invalid value: \"1st\": "
        + C_IDENTIFIER_MSG);
    String id33 = "a".repeat(33);
    assertThat(NameRules.qualifiedName(id33)).contains("Too long: may not be more than 32"
        + " bytes");
    assertThat(NameRules.qualifiedName("/x")).contains("Invalid value: \"\": the domain must"
        + " not be empty");
    assertThat(NameRules.qualifiedName("example.com/")).contains("Invalid value: \"\": the name"
        + " must not be empty");
    assertThat(NameRules.qualifiedName("ex_ample/a-b")).contains("Invalid value: \"ex_ample\": "
        + SUBDOMAIN_MSG + ", Invalid value: \"a-b\": " + C_IDENTIFIER_MSG);
    // Kubernetes 1.36 does not check a name with more than one slash.
    assertThat(NameRules.qualifiedName("a/b/c")).isEmpty();
  }

  @Test
  void labelKeyAndLabelValueAreTheServersLabelRules() {
    assertThat(NameRules.labelKey("example.com/Gpu_Fault")).isEmpty();
    assertThat(NameRules.labelKey("")).contains("Invalid value: \"\": name part must be"
        + " non-empty, Invalid value: \"\": " + NAME_PART_MSG);
    assertThat(NameRules.labelKey("-bad")).contains("Invalid value: \"-bad\": " + NAME_PART_MSG);
    assertThat(NameRules.labelKey("Example.com/x")).contains("Invalid value: \"Example.com/x\":"
        + " prefix part " + SUBDOMAIN_MSG);
    assertThat(NameRules.labelValue(null)).isEmpty();
    assertThat(NameRules.labelValue("")).isEmpty();
    assertThat(NameRules.labelValue("Ready_1.x")).isEmpty();
    assertThat(NameRules.labelValue("not ok")).contains("Invalid value: \"not ok\": "
        + LABEL_VALUE_MSG);
    String long64 = "v".repeat(64);
    assertThat(NameRules.labelValue(long64)).contains("Invalid value: \"" + long64 + "\": must be"
        + " no more than 63 bytes");
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "0", "Z9", "a-b", "a--b",
      "3f2a0c4e-1b7d-4c55-9a1e-2d6f8b9c0a11", "3F2A0C4E-1B7D-4C55-9A1E-2D6F8B9C0A11"})
  void uidAcceptsUuidsAndLettersDigitsInnerHyphens(String uid) {
    assertThat(NameRules.uid(uid)).isEmpty();
  }

  @Test
  void uidAcceptsExactlySixtyFourCharacters() {
    assertThat(NameRules.uid("a".repeat(64))).isEmpty();
    assertThat(NameRules.uid("a".repeat(65)))
        .contains("Too long: \"" + "a".repeat(65) + "\": may not be more than 64 characters");
  }

  @Test
  void uidIsRequired() {
    assertThat(NameRules.uid(null)).contains("Required value");
    assertThat(NameRules.uid("")).contains("Required value");
  }

  @ParameterizedTest
  @ValueSource(strings = {"-a", "a-", "-", "../../etc", "a/b", "a.b", "a b", "a_b", "a\nb",
      "\u00e4", "a\u0000"})
  void uidRejectsPathsPunctuationAndOuterHyphens(String uid) {
    assertThat(NameRules.uid(uid)).contains("Invalid value: \"" + uid + "\": a UID must consist"
        + " of letters, digits or '-', and must start and end with a letter or digit");
  }

  /** The rules as regular expressions, which the character loops must agree with. */
  private static final Pattern LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern SUBDOMAIN = Pattern
      .compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
  private static final Pattern UID = Pattern.compile("[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?");

  @Test
  void theFastChecksAgreeWithTheRegularExpressionsOnEdgeCasesAndRandomStrings() {
    List<String> values = new ArrayList<>(List.of("", "a", "-", "a-", "-a", "a-b", "a--b", "A",
        "aB", "a.b", "a..b", ".a", "a.", "a.-b", "a-.b", "1", "12-34", "a/b",
        "a".repeat(63), "a".repeat(64), "a".repeat(65),
        "0b1f6a3e-7c2d-4e5f-9a8b-1c2d3e4f5a6b", "a." + "b".repeat(62) + ".c",
        ("a".repeat(63) + ".").repeat(4) + "a", ("a".repeat(63) + ".").repeat(3) + "a".repeat(61)));
    String alphabet = "az09AZ-./=_ \t:\u00e9";
    Random random = new Random(15);
    for (int n = 0; n < 100_000; n++) {
      int length = random.nextInt(n % 1000 == 0 ? 300 : 12);
      StringBuilder value = new StringBuilder(length);
      for (int i = 0; i < length; i++) {
        value.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      values.add(value.toString());
    }
    for (String value : values) {
      boolean label = value.length() <= NameRules.DNS_LABEL_MAX && LABEL.matcher(value).matches();
      boolean subdomain = !value.isEmpty() && value.length() <= NameRules.DNS_SUBDOMAIN_MAX
          && SUBDOMAIN.matcher(value).matches();
      boolean uid = value.length() <= NameRules.UID_MAX && UID.matcher(value).matches();
      assertThat(NameRules.isDnsLabel(value)).as("label %s", value).isEqualTo(label);
      assertThat(NameRules.dnsLabel(value).isEmpty()).as("label %s", value).isEqualTo(label);
      assertThat(NameRules.isDnsSubdomain(value, NameRules.DNS_SUBDOMAIN_MAX))
          .as("subdomain %s", value).isEqualTo(subdomain);
      assertThat(NameRules.dnsSubdomain(value, NameRules.DNS_SUBDOMAIN_MAX).isEmpty())
          .as("subdomain %s", value).isEqualTo(subdomain);
      assertThat(NameRules.isUid(value)).as("uid %s", value).isEqualTo(uid);
      assertThat(NameRules.uid(value).isEmpty()).as("uid %s", value).isEqualTo(uid);
    }
    assertThat(NameRules.isDnsLabel(null)).isFalse();
    assertThat(NameRules.isDnsSubdomain(null, 10)).isFalse();
    assertThat(NameRules.isUid(null)).isFalse();
  }
}
