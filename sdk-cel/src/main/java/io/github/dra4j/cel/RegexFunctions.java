package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.INT;
import static io.github.dra4j.cel.KubernetesTypes.STRING;
import static io.github.dra4j.cel.KubernetesTypes.STRING_LIST;

import com.google.common.cache.CacheBuilder;
import com.google.common.cache.CacheLoader;
import com.google.common.cache.LoadingCache;
import com.google.common.collect.ImmutableList;
import com.google.common.util.concurrent.UncheckedExecutionException;
import com.google.re2j.Matcher;
import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import java.util.ArrayList;
import java.util.List;

/**
 * The Kubernetes regex library: {@code find()} and {@code findAll()} with RE2 semantics. Compiled
 * patterns are kept in a small bounded cache (thread-safe) because selectors use literal patterns.
 */
final class RegexFunctions implements FunctionLibrary {

  private final LoadingCache<String, Pattern> patterns = CacheBuilder.newBuilder().maximumSize(256)
      .build(CacheLoader.from(Pattern::compile));

  @Override
  public List<CelFunctionDecl> declarations() {
    return List.of(
        member("find", "string_find_string", STRING, STRING, STRING),
        member("findAll", "string_find_all_string", STRING_LIST, STRING, STRING),
        member("findAll", "string_find_all_string_int", STRING_LIST, STRING, STRING, INT));
  }

  // The overloads share this object's cache, which is thread-safe and only saves repeating a
  // pure compilation: what an overload returns never depends on it, so they are as good as
  // immutable.
  @SuppressWarnings("Immutable")
  @Override
  public List<CelFunctionBinding> bindings() {
    return List.of(
        CelFunctionBinding.from("string_find_string", String.class, String.class, this::find),
        CelFunctionBinding.from(
            "string_find_all_string", String.class, String.class, (s, re) -> findAll(s, re, -1)),
        CelFunctionBinding.from(
            "string_find_all_string_int",
            ImmutableList.of(String.class, String.class, Long.class),
            args -> findAll((String) args[0], (String) args[1], (Long) args[2])));
  }

  /** Compiles a pattern, throwing RE2's syntax error for an invalid one. */
  static void checkSyntax(String regex) {
    Pattern.compile(regex);
  }

  private Pattern pattern(String regex) throws CelEvaluationException {
    try {
      return patterns.getUnchecked(regex);
    } catch (UncheckedExecutionException e) {
      if (e.getCause() instanceof PatternSyntaxException) {
        throw FunctionLibrary.error("Illegal regex: " + e.getCause().getMessage());
      }
      throw e;
    }
  }

  private String find(String s, String regex) throws CelEvaluationException {
    Matcher m = pattern(regex).matcher(s);
    return m.find() ? m.group() : "";
  }

  private List<String> findAll(String s, String regex, long limit) throws CelEvaluationException {
    Matcher m = pattern(regex).matcher(s);
    List<String> found = new ArrayList<>();
    while ((limit < 0 || found.size() < limit) && m.find()) {
      found.add(m.group());
    }
    return found;
  }
}
