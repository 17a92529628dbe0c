package io.github.dra4j.webhook;

import static org.assertj.core.api.Assertions.assertThat;

import io.github.dra4j.resourceclaim.config.ConfigException;
import io.github.dra4j.resourceclaim.config.ConfigProblem;
import io.github.dra4j.resourceclaim.config.ConfigScheme;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ArrayNode;
import tools.jackson.databind.node.JsonNodeFactory;
import tools.jackson.databind.node.ObjectNode;

/**
 * Random and mutated parameters fed to the decoder, the review handler and the HTTPS server: the
 * decoder either returns a configuration or throws a {@link ConfigException} with paths, the
 * handler either decides or refuses the body as no review, and the server never answers 500.
 * Seeded, so a failure names the seed that repeats it; {@code -Ddra4j.fuzz.rounds=N} runs longer.
 */
class WebhookFuzzTest {

  private static final JsonMapper JSON = JsonMapper.builder().build();
  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
  private static final int ROUNDS = Integer.getInteger("dra4j.fuzz.rounds", 3000);
  private static final List<String> NAMES = List.of("apiVersion", "kind", "sharing", "strategy",
      "timeSlicingConfig", "interval", "spacePartitioningConfig", "partitionCount", "value",
      "millis", "", "shar\u00efng", "sharing.strategy", "[0]");
  private static final List<String> WORDS = List.of(SharingConfig.API_VERSION, "GpuConfig",
      "BrokenConfig", "TimeSlicing", "SpacePartitioning", "Default", "Long", "v1", "",
      "\u0000", "\"quoted\"", "x".repeat(300), "1", "true");

  private final ConfigScheme<Object> scheme = SharingConfig.scheme();
  private final AdmissionReviewHandler handler = AdmissionReviewHandler.of(SharingConfig.DRIVER,
      scheme);

  @Test
  void theDecoderReturnsAConfigurationOrAConfigException() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    int decoded = 0;
    int refused = 0;
    for (int round = 0; round < ROUNDS; round++) {
      String text = random.nextInt(3) == 0 ? mutateText(random, validText(random))
          : JSON.writeValueAsString(parameters(random));
      try {
        Object config = scheme.decode(text);
        assertThat(config).as("seed %d, input %s", seed, text).isNotNull();
        decoded++;
      } catch (ConfigException e) {
        assertProblems(e.problems(), "parameters", seed, text);
        refused++;
      } catch (RuntimeException e) {
        // BrokenConfig's own bug is the driver's, reported as such by the webhook; anything
        // else from the scheme is ours.
        assertThat(text).as("seed %d: %s for %s", seed, e, text).contains("BrokenConfig");
      }
    }
    assertThat(decoded).as("seed %d: some inputs are valid", seed).isPositive();
    assertThat(refused).as("seed %d: most inputs are not", seed).isGreaterThan(decoded);
  }

  @Test
  void theHandlerDecidesEveryReviewOrRefusesItAsNoReview() {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    int allowed = 0;
    int denied = 0;
    for (int round = 0; round < ROUNDS; round++) {
      String body = review(random);
      AdmissionDecision decision;
      try {
        decision = handler.handle(body.getBytes(StandardCharsets.UTF_8));
      } catch (InvalidAdmissionReviewException e) {
        assertThat(e.getMessage()).as("seed %d", seed).isNotBlank();
        continue;
      }
      JsonNode response = JSON.readTree(decision.response()).path("response");
      assertThat(response.path("allowed").asBoolean()).isEqualTo(decision.allowed());
      if (decision.allowed()) {
        allowed++;
      } else {
        denied++;
        assertProblems(decision.problems(), "spec.", seed, body);
        assertThat(decision.problems())
            .allSatisfy(p -> assertThat(p.path()).contains(".devices.config["));
        assertThat(response.path("status").path("message").asString()).isNotBlank();
      }
    }
    assertThat(allowed).as("seed %d", seed).isPositive();
    assertThat(denied).as("seed %d", seed).isPositive();
  }

  @Test
  void theServerNeverAnswers500(@TempDir Path directory) throws Exception {
    long seed = System.nanoTime();
    Random random = new Random(seed);
    WebhookFixture fixture = new WebhookFixture(directory);
    try (AdmissionWebhookServer server = AdmissionWebhookServer.builder(handler)
        .tls(fixture.certificateFile, fixture.keyFile).bindAddress("127.0.0.1").port(0)
        .start()) {
      for (int round = 0; round < Math.max(100, ROUNDS / 10); round++) {
        String body = random.nextInt(5) == 0 ? mutateText(random, review(random))
            : review(random);
        HttpResponse<String> answer = fixture.post(server, "application/json", body);
        assertThat(answer.statusCode()).as("seed %d, body %s", seed, body).isIn(200, 400);
        assertThat(answer.body()).isNotBlank();
      }
      assertThat(fixture.get(server, "/readyz").statusCode()).isEqualTo(200);
    }
  }

  private static void assertProblems(List<ConfigProblem> problems, String prefix, long seed,
      String input) {
    assertThat(problems).as("seed %d, input %s", seed, input).isNotEmpty()
        .allSatisfy(p -> {
          assertThat(p.path()).startsWith(prefix);
          assertThat(p.message()).isNotBlank();
        });
  }

  /** A review of a claim whose configurations are random or mutated parameters. */
  private String review(Random random) {
    ArrayNode configs = NODES.arrayNode();
    int entries = random.nextInt(4);
    for (int i = 0; i < entries; i++) {
      ObjectNode entry = configs.addObject();
      if (random.nextBoolean()) {
        ArrayNode requests = entry.putArray("requests");
        requests.add(random.nextBoolean() ? "gpu" : pick(random, List.of("gpu/large", "a/b/c",
            "", "GPU", "fallback/small")));
      }
      ObjectNode opaque = entry.putObject("opaque");
      opaque.put("driver", random.nextInt(5) == 0 ? "other.example.com" : SharingConfig.DRIVER);
      opaque.set("parameters", random.nextInt(4) == 0 ? value(random, 2) : parameters(random));
    }
    String version = pick(random, AdmissionReviewHandler.VERSIONS);
    Reviews.Kind kind = random.nextBoolean() ? Reviews.Kind.CLAIM : Reviews.Kind.TEMPLATE;
    return Reviews.review(version, kind, JSON.writeValueAsString(configs));
  }

  /** A GpuConfig-like object with random changes. */
  private static JsonNode parameters(Random random) {
    ObjectNode object = (ObjectNode) JSON.readTree(validText(random));
    int changes = random.nextInt(4);
    for (int i = 0; i < changes; i++) {
      mutate(random, object, 0);
    }
    return object;
  }

  private static String validText(Random random) {
    String sharing = switch (random.nextInt(4)) {
      case 0 -> "";
      case 1 -> ", \"sharing\": {\"strategy\": \"TimeSlicing\", \"timeSlicingConfig\": "
          + "{\"interval\": \"Short\"}}";
      case 2 -> ", \"sharing\": {\"strategy\": \"SpacePartitioning\", "
          + "\"spacePartitioningConfig\": {\"partitionCount\": 3}}";
      default -> ", \"sharing\": {\"strategy\": \"TimeSlicing\"}";
    };
    return "{\"apiVersion\": \"" + SharingConfig.API_VERSION + "\", \"kind\": \"GpuConfig\""
        + sharing + "}";
  }

  private static void mutate(Random random, ObjectNode object, int depth) {
    List<String> fields = object.propertyNames().stream().toList();
    int choice = random.nextInt(5);
    if (!fields.isEmpty() && choice == 0) {
      object.remove(pick(random, fields));
    } else if (!fields.isEmpty() && choice == 1) {
      object.set(pick(random, fields), value(random, 2));
    } else if (!fields.isEmpty() && choice == 2) {
      String field = pick(random, fields);
      if (object.get(field) instanceof ObjectNode inner && depth < 3) {
        mutate(random, inner, depth + 1);
      }
    } else {
      object.set(pick(random, NAMES), value(random, 2));
    }
  }

  private static JsonNode value(Random random, int depth) {
    switch (random.nextInt(depth > 0 ? 9 : 7)) {
      case 0 -> {
        return NODES.stringNode(pick(random, WORDS));
      }
      case 1 -> {
        return NODES.numberNode(random.nextInt(200) - 100);
      }
      case 2 -> {
        return NODES.numberNode(random.nextLong());
      }
      case 3 -> {
        return NODES.numberNode(random.nextDouble() * 1e6);
      }
      case 4 -> {
        return NODES.booleanNode(random.nextBoolean());
      }
      case 5 -> {
        return NODES.nullNode();
      }
      case 6 -> {
        return NODES.numberNode(new java.math.BigInteger(80, random));
      }
      case 7 -> {
        ArrayNode array = NODES.arrayNode();
        for (int i = random.nextInt(3); i > 0; i--) {
          array.add(value(random, depth - 1));
        }
        return array;
      }
      default -> {
        ObjectNode object = NODES.objectNode();
        for (int i = random.nextInt(3); i > 0; i--) {
          object.set(pick(random, NAMES), value(random, depth - 1));
        }
        return object;
      }
    }
  }

  /** Damages JSON text: truncation, a stray character, a duplicated field, a swapped quote. */
  private static String mutateText(Random random, String text) {
    int at = random.nextInt(text.length());
    return switch (random.nextInt(5)) {
      case 0 -> text.substring(0, at);
      case 1 -> text.substring(0, at) + pick(random, List.of("{", "}", ",", "\"", ":", "\\",
          "\u00ff", "]")) + text.substring(at);
      case 2 -> text.replaceFirst("\"kind\": \"GpuConfig\"",
          "\"kind\": \"GpuConfig\", \"kind\": \"GpuConfig\"");
      case 3 -> text.replace('"', '\'');
      default -> text + pick(random, List.of("}", " x", "{}", "\n"));
    };
  }

  private static <T> T pick(Random random, List<T> values) {
    return values.get(random.nextInt(values.size()));
  }
}
