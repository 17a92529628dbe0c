package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.global;
import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.BOOL;
import static io.github.dra4j.cel.KubernetesTypes.STRING;
import static io.github.dra4j.cel.KubernetesTypes.STRING_TO_STRING_LIST;
import static io.github.dra4j.cel.KubernetesTypes.URL;

import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The Kubernetes URLs library: {@code url()}, {@code isURL()} and the getters of {@code
 * kubernetes.URL}. A URL must be absolute or an absolute path, like Go's {@code
 * url.ParseRequestURI}; parsing uses {@link URI}, so rare edge cases may differ from Go.
 */
final class UrlFunctions implements FunctionLibrary {

  @Override
  public List<CelFunctionDecl> declarations() {
    return List.of(
        global("url", "string_to_url", URL, STRING),
        global("isURL", "is_url_string", BOOL, STRING),
        member("getScheme", "url_get_scheme", STRING, URL),
        member("getHost", "url_get_host", STRING, URL),
        member("getHostname", "url_get_hostname", STRING, URL),
        member("getPort", "url_get_port", STRING, URL),
        member("getEscapedPath", "url_get_escaped_path", STRING, URL),
        member("getQuery", "url_get_query", STRING_TO_STRING_LIST, URL));
  }

  @Override
  public List<CelFunctionBinding> bindings() {
    Class<ParsedUrl> u = ParsedUrl.class;
    return List.of(
        CelFunctionBinding.from("string_to_url", String.class, UrlFunctions::url),
        CelFunctionBinding.from("is_url_string", String.class, s -> ParsedUrl.parse(s) != null),
        CelFunctionBinding.from("url_get_scheme", u, p -> nullToEmpty(p.uri.getScheme())),
        CelFunctionBinding.from("url_get_host", u, ParsedUrl::host),
        CelFunctionBinding.from("url_get_hostname", u, ParsedUrl::hostname),
        CelFunctionBinding.from(
            "url_get_port", u, p -> p.uri.getPort() < 0 ? "" : Integer.toString(p.uri.getPort())),
        CelFunctionBinding.from("url_get_escaped_path", u, p -> nullToEmpty(p.uri.getRawPath())),
        CelFunctionBinding.from("url_get_query", u, ParsedUrl::query));
  }

  private static ParsedUrl url(String text) throws CelEvaluationException {
    ParsedUrl parsed = ParsedUrl.parse(text);
    if (parsed == null) {
      throw FunctionLibrary.error(
          "URL parse error during conversion from string: parse \"" + text
              + "\": invalid URI for request");
    }
    return parsed;
  }

  private static String nullToEmpty(String s) {
    return s == null ? "" : s;
  }

  /** A parsed request URL. Immutable. */
  static final class ParsedUrl {
    private final URI uri;

    private ParsedUrl(URI uri) {
      this.uri = uri;
    }

    /** Returns the parsed URL, or null when it is not a request URI. */
    static ParsedUrl parse(String text) {
      try {
        URI uri = new URI(text);
        if (!uri.isAbsolute() && !text.startsWith("/")) {
          return null;
        }
        return new ParsedUrl(uri);
      } catch (URISyntaxException e) {
        return null;
      }
    }

    String host() {
      String host = nullToEmpty(uri.getHost());
      return uri.getPort() < 0 ? host : host + ":" + uri.getPort();
    }

    String hostname() {
      String host = nullToEmpty(uri.getHost());
      return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1)
          : host;
    }

    Map<String, List<String>> query() {
      Map<String, List<String>> result = new LinkedHashMap<>();
      String raw = uri.getRawQuery();
      if (raw == null || raw.isEmpty()) {
        return result;
      }
      for (String pair : raw.split("&", -1)) {
        if (pair.isEmpty()) {
          continue;
        }
        int eq = pair.indexOf('=');
        String key = eq < 0 ? pair : pair.substring(0, eq);
        String value = eq < 0 ? "" : pair.substring(eq + 1);
        result
            .computeIfAbsent(decode(key), k -> new ArrayList<>())
            .add(decode(value));
      }
      return result;
    }

    private static String decode(String s) {
      return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof ParsedUrl parsedUrl && uri.equals(parsedUrl.uri);
    }

    @Override
    public int hashCode() {
      return uri.hashCode();
    }

    @Override
    public String toString() {
      return uri.toString();
    }
  }
}
