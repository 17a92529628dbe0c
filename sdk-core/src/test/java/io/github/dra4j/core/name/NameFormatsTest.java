package io.github.dra4j.core.name;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The name formats against apimachinery's own tables and the server's exact messages. */
class NameFormatsTest {

  private static final String LABEL_MSG = "a lowercase RFC 1123 label must consist of lower case"
      + " alphanumeric characters or '-', and must start and end with an alphanumeric character"
      + " (e.g. 'my-name',  or '123-abc', regex used for validation is"
      + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
  private static final String SUBDOMAIN_MSG = "a lowercase RFC 1123 subdomain must consist of"
      + " lower case alphanumeric characters, '-' or '.', and must start and end with an"
      + " alphanumeric character (e.g. 'example.com', regex used for validation is"
      + " '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
  private static final String NAME_PART_MSG = "name part must consist of alphanumeric"
      + " characters, '-', '_' or '.', and must start and end with an alphanumeric character"
      + " (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is"
      + " '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')";

  @ParameterizedTest
  @ValueSource(strings = {"a", "ab", "abc", "a1", "a-1", "a--1--2--b", "0", "01", "012", "1a",
      "1-a", "1--a--b--2", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"})
  void dnsLabelsThatApimachineryAccepts(String value) {
    assertThat(NameFormats.dns1123Label(value)).isEmpty();
    assertThat(NameFormats.isDns1123Label(value)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "A", "ABC", "aBc", "A1", "A-1", "1-A", "-", "a-", "-a", "1-", "-1",
      "_", "a_", "_a", "a_b", "1_", "_1", "1_2", "*", "a*", "*a", "a*b", "a@b", "a,b", "a b",
      "a\nb", "ä"})
  void dnsLabelsThatApimachineryRefuses(String value) {
    assertThat(NameFormats.dns1123Label(value)).containsExactly(LABEL_MSG);
    assertThat(NameFormats.isDns1123Label(value)).isFalse();
  }

  @Test
  void aLabelWithDotsIsToldSoAndATooLongOneGetsTwoMessages() {
    assertThat(NameFormats.dns1123Label("a.b")).containsExactly("must not contain dots");
    assertThat(NameFormats.dns1123Label("a".repeat(64)))
        .containsExactly("must be no more than 63 characters");
    assertThat(NameFormats.shortName("A".repeat(64)))
        .containsExactly("must be no more than 63 bytes", LABEL_MSG);
  }

  @ParameterizedTest
  @ValueSource(strings = {"a", "ab", "a.b", "a-b.c", "0.a", "a.b.c.d.e", "aa.bb.cc",
      "a1.b2.c3", "1.2.3.4", "example.com"})
  void subdomainsThatApimachineryAccepts(String value) {
    assertThat(NameFormats.dns1123Subdomain(value)).isEmpty();
    assertThat(NameFormats.longName(value)).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "A", "ABC", "aBc", "a.B", "-", "a-", "-a", "_", "a_b", "a..b",
      ".a", "a.", "a.-b", "a-.b", "a@b", "a b", "a/b"})
  void subdomainsThatApimachineryRefuses(String value) {
    assertThat(NameFormats.dns1123Subdomain(value)).containsExactly(SUBDOMAIN_MSG);
  }

  @Test
  void subdomainLengthsAreCharactersInUtilAndBytesInContent() {
    String long254 = "a".repeat(254);
    assertThat(NameFormats.dns1123Subdomain(long254))
        .containsExactly("must be no more than 253 characters");
    assertThat(NameFormats.longName(long254)).containsExactly("must be no more than 253 bytes");
    assertThat(NameFormats.dns1123Subdomain("a".repeat(253))).isEmpty();
  }

  @ParameterizedTest
  @ValueSource(strings = {"simple", "now-with-dashes", "1-starts-with-num", "1234",
      "simple/simple", "now-with-dashes/simple", "now-with-dashes/now-with-dashes",
      "now.with.dots/simple", "now-with.dashes-and.dots/simple", "1-num.2-num/3-num",
      "1234/5678", "1.2.3.4/5678", "Uppercase_Is_OK_123", "example.com/Uppercase_Is_OK_123",
      "requests.storage-foo",
      "tooLongName" + "--------------------------------------------------" + "63",
      "lower-case-is-required-in-the-prefix.example.com/name"})
  void qualifiedNamesThatApimachineryAccepts(String value) {
    assertThat(NameFormats.qualifiedName(value)).isEmpty();
    assertThat(NameFormats.isQualifiedName(value)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"nospecialchars%^=@", "cantendwithadash-", "-cantstartwithadash-",
      "only/one/slash", "Example.com/abc", "example_com/abc", "example.com/", "/simple",
      "tooLongName" + "---------------------------------------------------"
          + "64",
      ""})
  void qualifiedNamesThatApimachineryRefuses(String value) {
    assertThat(NameFormats.qualifiedName(value)).isNotEmpty();
    assertThat(NameFormats.isQualifiedName(value)).isFalse();
  }

  @Test
  void qualifiedNameMessagesAreTheServers() {
    assertThat(NameFormats.qualifiedName("a/b/c")).containsExactly("a valid label key "
        + NAME_PART_MSG.substring("name part ".length())
        + " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
    assertThat(NameFormats.qualifiedName("/simple")).containsExactly("prefix part must be"
        + " non-empty");
    assertThat(NameFormats.qualifiedName("example.com/"))
        .containsExactly("name part must be non-empty", NAME_PART_MSG);
    assertThat(NameFormats.qualifiedName("Example.com/abc"))
        .containsExactly("prefix part " + SUBDOMAIN_MSG);
    assertThat(NameFormats.qualifiedName("x".repeat(64)))
        .containsExactly("name part must be no more than 63 bytes");
    assertThat(NameFormats.qualifiedName("a%b")).containsExactly(NAME_PART_MSG);
    assertThat(NameFormats.qualifiedName("a".repeat(254) + "/b"))
        .containsExactly("prefix part must be no more than 253 bytes");
  }

  @ParameterizedTest
  @ValueSource(strings = {"simple", "now-with-dashes", "1-starts-with-num", "end-with-num-1",
      "1234", "", "a", "A", "a_b", "Uppercase.And.Dots_1"})
  void labelValuesThatApimachineryAccepts(String value) {
    assertThat(NameFormats.labelValue(value)).isEmpty();
  }

  @Test
  void labelValuesThatApimachineryRefuses() {
    String message = "a valid label must be an empty string or consist of alphanumeric"
        + " characters, '-', '_' or '.', and must start and end with an alphanumeric character"
        + " (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is"
        + " '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')";
    for (String bad : List.of("nospecialchars%^=@", "Tama-nui-te-rā.is.Māori.sun",
        "\\backslashes\\are\\bad", "-starts-with-dash", "ends-with-dash-", ".starts.with.dot",
        "ends.with.dot.")) {
      assertThat(NameFormats.labelValue(bad)).as(bad).containsExactly(message);
    }
    assertThat(NameFormats.labelValue("a".repeat(64)))
        .containsExactly("must be no more than 63 bytes");
    assertThat(NameFormats.labelValue("é".repeat(32)))
        .containsExactly("must be no more than 63 bytes", message);
  }

  @Test
  void cIdentifiersAndConditionReasons() {
    for (String good : List.of("a", "ab", "abc", "a1", "_a", "a_", "a_b", "a_1", "a__1__2__b",
        "__abc_123", "A", "AB", "AbC", "A1", "_A", "A_", "A_B", "A_1", "A__1__2__B")) {
      assertThat(NameFormats.cIdentifier(good)).as(good).isEmpty();
    }
    for (String bad : List.of("", "1", "123", "1a", "-", "a-", "-a", "1-", "-1", "1_", "1_2",
        ".", "a.", ".a", "a.b", "1.", ".1", "1.2", " ", "a ", " a", "a b", "1 ", " 1", "1 2",
        "#a#")) {
      assertThat(NameFormats.cIdentifier(bad)).as(bad).containsExactly("a valid C identifier"
          + " must start with alphabetic character or '_', followed by a string of alphanumeric"
          + " characters or '_' (e.g. 'my_name',  or 'MY_NAME',  or 'MyName', regex used for"
          + " validation is '[A-Za-z_][A-Za-z0-9_]*')");
    }
    assertThat(NameFormats.conditionReason("ReasonA,ReasonB:c_")).isEmpty();
    assertThat(NameFormats.conditionReason("a")).isEmpty();
    for (String bad : List.of("", "_a", "1a", "a,", "a:", "a-b", "a b")) {
      assertThat(NameFormats.conditionReason(bad)).as(bad).hasSize(1);
    }
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "1.2.3.4/24|", "1.1.1.1/32|", "2001:4860:4860::1/48|", "::1/128|", "::/0|",
      "10.9.8.0/24|", "2001:db8::1/64|",
      "|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
      "aaaaaaa|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
      "1.2.3.4|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
      "192.168.0.1/healthz|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or"
          + " 2001:db8::1/64)",
      "192.168.0.1/0/99|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or"
          + " 2001:db8::1/64)",
      "192.168.0.0/-16|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or"
          + " 2001:db8::1/64)",
      "192.168.0.0/+16|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or"
          + " 2001:db8::1/64)",
      "300.9.8.0/24|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or"
          + " 2001:db8::1/64)",
      "1.2.3.4/33|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or 2001:db8::1/64)",
      "fe80::1%eth0/64|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or"
          + " 2001:db8::1/64)",
      "2001:db8::12345/64|must be a valid address in CIDR form, (e.g. 10.9.8.7/24 or"
          + " 2001:db8::1/64)",
      "2001:0:0:0::0BCD/64|must be in canonical form (\"2001::bcd/64\")",
      "1.1.01.002/24|must be in canonical form (\"1.1.1.2/24\")",
      "010.009.008.000/24|must be in canonical form (\"10.9.8.0/24\")",
      "2001:0db8::1/64|must be in canonical form (\"2001:db8::1/64\")",
      "::ffff:1.1.1.1/24|must be in canonical form (\"1.1.1.1/24\")",
      "::ffff:1.1.1.1/120|must be in canonical form (\"1.1.1.1/24\")",
      "192.168.0.5/016|must be in canonical form (\"192.168.0.5/16\")",
      "1:0:0:1:0:0:0:1/64|must be in canonical form (\"1:0:0:1::1/64\")",
      "1:0:0:1:0:0:1:1/64|must be in canonical form (\"1::1:0:0:1:1/64\")",
      "::0:1/64|must be in canonical form (\"::1/64\")"})
  void interfaceAddressesAsIsValidInterfaceAddressJudgesThem(String value, String message) {
    String in = value == null ? "" : value;
    if (message == null) {
      assertThat(NameFormats.interfaceAddress(in)).isEmpty();
    } else {
      assertThat(NameFormats.interfaceAddress(in)).containsExactly(message);
    }
  }

  @Test
  void utf8LengthCountsGoBytes() {
    assertThat(NameFormats.utf8Length("abc")).isEqualTo(3);
    assertThat(NameFormats.utf8Length("é")).isEqualTo(2);
    assertThat(NameFormats.utf8Length("€")).isEqualTo(3);
    assertThat(NameFormats.utf8Length("😀")).isEqualTo(4);
    assertThat(NameFormats.utf8Length("\ud800")).isEqualTo(3);
  }

  @Test
  void theFastChecksAgreeWithTheServersRegularExpressions() {
    Pattern label = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");
    Pattern subdomain = Pattern
        .compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");
    Pattern key = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
    Pattern ident = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");
    Pattern reason = Pattern.compile("[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?");
    String alphabet = "az09AZ-._,:/ ";
    Random random = new Random(36);
    List<String> values = new ArrayList<>();
    for (int n = 0; n < 50_000; n++) {
      StringBuilder value = new StringBuilder();
      int length = random.nextInt(n % 500 == 0 ? 300 : 8);
      for (int i = 0; i < length; i++) {
        value.append(alphabet.charAt(random.nextInt(alphabet.length())));
      }
      values.add(value.toString());
    }
    for (String value : values) {
      assertThat(NameFormats.isDns1123Label(value)).as(value)
          .isEqualTo(value.length() <= 63 && label.matcher(value).matches());
      assertThat(NameFormats.isDns1123Subdomain(value)).as(value)
          .isEqualTo(value.length() <= 253 && subdomain.matcher(value).matches());
      assertThat(NameFormats.isLabelValue(value)).as(value)
          .isEqualTo(value.isEmpty() || (value.length() <= 63 && key.matcher(value).matches()));
      assertThat(NameFormats.isCIdentifier(value)).as(value)
          .isEqualTo(ident.matcher(value).matches());
      assertThat(NameFormats.isConditionReason(value)).as(value)
          .isEqualTo(reason.matcher(value).matches());
      int slash = value.indexOf('/');
      String name = value.substring(slash + 1);
      boolean prefixOk = slash < 0 || (slash <= 253
          && subdomain.matcher(value.substring(0, slash)).matches());
      assertThat(NameFormats.isQualifiedName(value)).as(value).isEqualTo(prefixOk
          && name.indexOf('/') < 0 && name.length() <= 63 && key.matcher(name).matches());
      assertThat(NameFormats.qualifiedName(value).isEmpty()).as(value)
          .isEqualTo(NameFormats.isQualifiedName(value));
    }
  }
}
