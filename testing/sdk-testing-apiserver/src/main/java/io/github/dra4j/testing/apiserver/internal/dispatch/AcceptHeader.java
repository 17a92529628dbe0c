package io.github.dra4j.testing.apiserver.internal.dispatch;

import java.util.Locale;
import java.util.Set;

/**
 * Content negotiation of the in-memory API server, which speaks JSON only. A real API server also
 * offers protobuf and YAML; clients that ask for protobuf first (client-go sends {@code
 * application/vnd.kubernetes.protobuf, application/json}) get JSON, which they decode by the
 * {@code Content-Type} of the answer. A request whose {@code Accept} header rules JSON out gets
 * 406 Not Acceptable, as a real server answers a media type it cannot produce. Stateless.
 */
public final class AcceptHeader {

  /** The one media type the server produces. */
  public static final String JSON = "application/json";

  /**
   * Media type parameters that do not change the JSON produced: {@code stream=watch} for watches,
   * {@code charset}, and the quality {@code q}. A parameter such as {@code as=Table} or {@code
   * g=apidiscovery.k8s.io} asks for a different document, so such a range does not match plain
   * JSON (clients that send one also list plain {@code application/json}).
   */
  private static final Set<String> NEUTRAL_PARAMETERS = Set.of("stream", "charset", "q");

  private AcceptHeader() {}

  /**
   * Tells whether an {@code Accept} header allows a plain JSON answer.
   *
   * @param accept the header value, or null if absent
   * @return true if absent, empty, or if one of its media ranges is {@code *}{@code /*}, {@code
   *     application/*} or {@code application/json} without parameters that ask for another
   *     document, and without {@code q=0}
   */
  public static boolean allowsJson(String accept) {
    if (accept == null || accept.isBlank()) {
      return true;
    }
    for (String range : accept.split(",", -1)) {
      if (rangeAllowsJson(range)) {
        return true;
      }
    }
    return false;
  }

  private static boolean rangeAllowsJson(String range) {
    String[] parts = range.split(";", -1);
    String type = parts[0].trim().toLowerCase(Locale.ROOT);
    if (!type.equals("*/*") && !type.equals("application/*") && !type.equals(JSON)) {
      return false;
    }
    for (int i = 1; i < parts.length; i++) {
      String parameter = parts[i].trim();
      int eq = parameter.indexOf('=');
      String name = (eq < 0 ? parameter : parameter.substring(0, eq)).trim()
          .toLowerCase(Locale.ROOT);
      String value = eq < 0 ? "" : parameter.substring(eq + 1).trim();
      if (!NEUTRAL_PARAMETERS.contains(name)) {
        return false;
      }
      if (name.equals("q") && value.matches("0(\\.0*)?")) {
        return false;
      }
    }
    return true;
  }

  /**
   * The answer for a request whose {@code Accept} header rules JSON out.
   *
   * @return a 406 error with the real server's wording
   */
  public static ApiError notAcceptable() {
    return new ApiError(406, "NotAcceptable",
        "only the following media types are accepted: " + JSON);
  }
}
