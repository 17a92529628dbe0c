package io.github.dra4j.cel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Compilation, caching, limits and the libraries of the DRA CEL environment. */
class DeviceSelectorEnvironmentTest {

  private static DeviceSelectorEnvironment environment;
  private static SelectorDevice device;

  @BeforeAll
  static void buildEnvironment() {
    environment = DeviceSelectorEnvironment.create();
    device = ExampleDevice.view();
  }

  private static SelectorResult eval(String expression) throws SelectorCompileException {
    return environment.compile(expression).evaluate(device);
  }

  @Test
  void compiledSelectorsAreCachedByExpressionText() throws Exception {
    CompiledSelector first = environment.compile("device.driver == \"cached\"");
    assertThat(environment.compile("device.driver == \"cached\"")).isSameAs(first);
    assertThat(environment.compile("device.driver ==  \"cached\"")).isNotSameAs(first);
  }

  @Test
  void aSmallCacheEvictsButStillCompiles() throws Exception {
    DeviceSelectorEnvironment small = DeviceSelectorEnvironment.create(1);
    CompiledSelector a = small.compile("true");
    small.compile("false");
    assertThat(small.compile("true")).isNotSameAs(a);
    assertThat(small.compile("true").evaluate(device).matches()).isTrue();
    assertThatThrownBy(() -> DeviceSelectorEnvironment.create(0))
        .hasMessageContaining("cacheSize must be at least 1, got 0");
  }

  @Test
  void compileErrorsReadLikeKubernetesWithSourceLineAndCaret() {
    assertThatThrownBy(() -> environment.compile("noSuchVar"))
        .isInstanceOf(SelectorCompileException.class)
        .hasMessage("compilation failed: ERROR: <input>:1:1: undeclared reference to 'noSuchVar'"
            + " (in container '')\n | noSuchVar\n | ^")
        .satisfies(
            e -> assertThat(((SelectorCompileException) e).expression()).isEqualTo("noSuchVar"));
    assertThatThrownBy(() -> environment.compile("device.name == \"gpu-0\""))
        .hasMessageContaining("undefined field 'name'");
    assertThatThrownBy(() -> environment.compile("device[\"driver\"] == \"x\""))
        .hasMessageContaining("found no matching overload for '_[_]'");
    assertThatThrownBy(() -> environment.compile("device.driver == "))
        .hasMessageContaining(": Syntax error: mismatched input");
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "semver(\"1.0.0\")", "device.attributes", "\"x\"", "1.5"
  })
  void nonBooleanResultTypesDoNotCompile(String expression) {
    assertThatThrownBy(() -> environment.compile(expression))
        .hasMessageStartingWith("must evaluate to bool or the unknown type, not ");
  }

  @Test
  void invalidLiteralArgumentsAreCompileErrors() {
    assertThatThrownBy(() -> environment.compile("\"x\".matches(\"[\")"))
        .hasMessageContaining("invalid matches argument");
    assertThatThrownBy(() -> environment.compile("\"x\".find(\"(\") == \"\""))
        .hasMessageStartingWith(
            "program instantiation failed: error parsing regexp: missing closing )");
    assertThatThrownBy(() -> environment.compile("duration(\"1x\") > duration(\"1s\")"))
        .hasMessageContaining("invalid duration argument");
    assertThatThrownBy(() -> environment.compile("[1, \"a\"].size() == 2"))
        .hasMessageContaining("expected type 'int' but found 'string'");
  }

  @Test
  void runawayComprehensionsHitTheCostLimit() throws Exception {
    assertThat(
        eval("lists.range(1000).all(i, lists.range(1000).all(j, lists.range(10).all(k, true)))"))
        .isEqualTo(new SelectorResult.Failure("operation cancelled: actual cost limit exceeded"));
    assertThat(eval("lists.range(100000000).size() > 0"))
        .isEqualTo(new SelectorResult.Failure("operation cancelled: actual cost limit exceeded"));
    assertThat(eval("lists.range(100).all(i, lists.range(100).all(j, i + j >= 0))").matches())
        .isTrue();
  }

  @Test
  void kubernetesLibrariesEvaluate() throws Exception {
    List<String> trueExpressions = List.of(
        "[1, 2, 3].isSorted() && ![2, 1].isSorted()",
        "[1, 2, 3].sum() == 6 && [1.5, 2.5].sum() == 4.0 && [].sum() == 0",
        "[3, 1, 2].min() == 1 && [\"b\", \"a\"].max() == \"b\"",
        "[1, 2, 1].indexOf(1) == 0 && [1, 2, 1].lastIndexOf(1) == 2 && [1].indexOf(9) == -1",
        "\"a1b22c333\".findAll(\"[0-9]+\") == [\"1\", \"22\", \"333\"]",
        "\"a1b22c333\".findAll(\"[0-9]+\", 2) == [\"1\", \"22\"] && \"abc\".find(\"[0-9]\") == \"\"",
        "url(\"https://example.com:8080/a%20b?x=1&x=2\").getHost() == \"example.com:8080\"",
        "url(\"https://example.com/p\").getQuery() == {} && isURL(\"/relative/ok\") && !isURL(\"nope\")",
        "url(\"https://example.com:8080/a%20b?x=1&x=2\").getQuery()[\"x\"] == [\"1\", \"2\"]",
        "ip(\"10.0.0.1\").family() == 4 && ip(\"::1\").isLoopback() && ip(\"fe80::1\").isLinkLocalUnicast()",
        "ip(\"8.8.8.8\").isGlobalUnicast() && !ip(\"0.0.0.0\").isGlobalUnicast() && ip(\"0.0.0.0\").isUnspecified()",
        "ip.isCanonical(\"2001:db8::1\") && !ip.isCanonical(\"2001:DB8::1\") && !isIP(\"::ffff:1.2.3.4\")",
        "cidr(\"10.0.0.0/8\").containsIP(\"10.1.2.3\") && !cidr(\"10.0.0.0/8\").containsIP(ip(\"11.0.0.1\"))",
        "cidr(\"10.0.0.0/8\").containsCIDR(\"10.1.0.0/16\") && cidr(\"10.1.2.3/8\").masked() == cidr(\"10.0.0.0/8\")",
        "cidr(\"10.0.0.0/8\").prefixLength() == 8 && string(cidr(\"10.0.0.0/8\").ip()) == \"10.0.0.0\"",
        "format.dns1123Label().validate(\"ok-name\") == optional.none()",
        "format.named(\"dns1123Label\").value().validate(\"Bad_Name\").hasValue()",
        "!format.named(\"nope\").hasValue() && format.uuid().validate(\"x\").hasValue()",
        "\"%s=%d %.2f %x %X %o %b %e\".format([\"a\", 10, 1.5, 255, 255, 8, 5, 1000.0])"
            + " == \"a=10 1.50 ff FF 10 101 1.000000e+03\"",
        "\"100%% %s\".format([[1, 2]]) == \"100% [1, 2]\"",
        "sets.contains([1, 2, 3], [2]) && sets.equivalent([1, 2], [2, 1]) && sets.intersects([1], [1, 5])",
        "[3, 1, 2].sort() == [1, 2, 3] && [1, 1, 2].distinct() == [1, 2] && [[1], [2]].flatten() == [1, 2]",
        "[1, 2, 3, 4].slice(1, 3) == [2, 3] && [1, 2].reverse() == [2, 1] && lists.range(3) == [0, 1, 2]",
        "[\"bb\", \"a\"].sortBy(s, s.size()) == [\"a\", \"bb\"]",
        "{\"a\": 1}.transformMap(k, v, v + 1) == {\"a\": 2} && [1, 2].transformList(i, v, v * i) == [0, 2]",
        "[1, 2, 3].exists_one(x, x == 2) && [1, 2].all(i, v, v > i)",
        "\"Hello\".charAt(1) == \"e\" && \"a,b\".split(\",\").join(\"-\") == \"a-b\" && \" x \".trim() == \"x\"",
        "\"aXa\".replace(\"a\", \"b\") == \"bXb\" && \"abc\".upperAscii() == \"ABC\" && strings.quote(\"a\") == \"\\\"a\\\"\"",
        "isQuantity(\"1Gi\") && !isQuantity(\"1Kb\") && quantity(\"1Gi\").asApproximateFloat() == 1073741824.0",
        "quantity(\"1Ki\").add(1) == quantity(\"1025\") && quantity(\"1Ki\").sub(24) == quantity(\"1000\")",
        "semver(\"1.2.3\").minor() == 2 && semver(\"1.2.3\").patch() == 3 && isSemver(\"v1.2\", true)",
        "dyn(1) == 1u && " + ExampleDevice.A + ".index == 0u",
        "dyn(1) == 1.0 && 2 > 1.5",
        "\"1.2.3\" == " + ExampleDevice.A + ".driverVersion == false");
    for (String expression : trueExpressions) {
      assertThat(eval(expression)).as(expression).isEqualTo(SelectorResult.MATCH);
    }
  }

  @Test
  void thingsKubernetesDoesNotOfferDoNotCompile() {
    for (String expression : List.of(
        "\"abc\".reverse() == \"cba\"",
        "math.greatest(1, 2) == 2",
        "base64.encode(b\"a\") == \"YQ==\"",
        "string(quantity(\"1\")) == \"1\"",
        "type(semver(\"1.0.0\")) == kubernetes.Semver",
        "quantity(\"1\").isGreaterThan(1)")) {
      assertThatThrownBy(() -> environment.compile(expression)).as(expression)
          .isInstanceOf(SelectorCompileException.class);
    }
  }

  @Test
  void runtimeErrorsUseKubernetesTexts() throws Exception {
    assertThat(eval("\"abc\".substring(10) == \"\""))
        .isEqualTo(new SelectorResult.Failure("index out of range: 10"));
    assertThat(eval(ExampleDevice.A + ".index.exists(x, true)"))
        .isEqualTo(new SelectorResult.Failure("got 'types.Int', expected iterable type"));
    assertThat(eval(ExampleDevice.A + ".driverVersion.all(x, true)"))
        .isEqualTo(new SelectorResult.Failure("got 'cel.Semver', expected iterable type"));
    assertThat(eval(ExampleDevice.A + ".index.isGreaterThan(semver(\"1.0.0\"))"))
        .isEqualTo(new SelectorResult.Failure("no such overload: isGreaterThan"));
    assertThat(eval("quantity(\"1.5\").asInteger() == 1"))
        .isEqualTo(new SelectorResult.Failure("cannot convert value to integer"));
    assertThat(eval("semver(\"1.2\").major() == 1"))
        .isEqualTo(new SelectorResult.Failure("No Major.Minor.Patch elements found"));
    assertThat(eval("1 / 0 == 1")).isEqualTo(new SelectorResult.Failure("division by zero"));
  }

  @Test
  void theSharedEnvironmentAndItsSelectorsAreSafeToUseFromManyThreads() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int i = 0; i < 64; i++) {
        int n = i;
        results.add(pool.submit(() -> {
          DeviceSelectorEnvironment shared = DeviceSelectorEnvironment.stored();
          assertThat(shared).isSameAs(DeviceSelectorEnvironment.stored());
          return shared.compile("device.attributes[\"gpu.example.com\"].index < " + (n % 8))
              .evaluate(device)
              .matches();
        }));
      }
      for (int i = 0; i < results.size(); i++) {
        assertThat(results.get(i).get(60, TimeUnit.SECONDS)).isEqualTo(i % 8 > 0);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
