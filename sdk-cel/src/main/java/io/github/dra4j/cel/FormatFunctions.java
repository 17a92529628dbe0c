package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.global;
import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.FORMAT;
import static io.github.dra4j.cel.KubernetesTypes.STRING;
import static io.github.dra4j.cel.KubernetesTypes.STRING_LIST;

import com.google.errorprone.annotations.Immutable;
import com.google.re2j.Pattern;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.types.OptionalType;
import dev.cel.runtime.CelFunctionBinding;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The Kubernetes format library: {@code format.named(name)}, {@code format.<name>()} and {@code
 * <Format>.validate(s)}, which returns the validation errors or none. The rules are the
 * Kubernetes name and label rules; the error texts are shortened forms of Kubernetes'.
 */
final class FormatFunctions implements FunctionLibrary {

  private static final String LABEL = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
  private static final Pattern DNS1123_LABEL = Pattern.compile(LABEL);
  private static final Pattern DNS1123_SUBDOMAIN = Pattern.compile(LABEL + "(\\." + LABEL + ")*");
  private static final Pattern DNS1035_LABEL = Pattern.compile("[a-z]([-a-z0-9]*[a-z0-9])?");
  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern UUID = Pattern
      .compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

  private static final Map<String, NamedFormat> FORMATS = formats();

  @Override
  public List<CelFunctionDecl> declarations() {
    List<CelFunctionDecl> decls = new ArrayList<>();
    decls.add(global("format.named", "format_named", OptionalType.create(FORMAT), STRING));
    for (String name : FORMATS.keySet()) {
      decls.add(global("format." + name, "format_" + name, FORMAT));
    }
    decls.add(
        member("validate", "format_validate", OptionalType.create(STRING_LIST), FORMAT, STRING));
    return decls;
  }

  @Override
  public List<CelFunctionBinding> bindings() {
    List<CelFunctionBinding> bindings = new ArrayList<>();
    bindings.add(
        CelFunctionBinding.from(
            "format_named", String.class, name -> Optional.ofNullable(FORMATS.get(name))));
    for (Map.Entry<String, NamedFormat> e : FORMATS.entrySet()) {
      NamedFormat format = e.getValue();
      bindings.add(CelFunctionBinding.from("format_" + e.getKey(), List.of(), args -> format));
    }
    bindings.add(
        CelFunctionBinding.from(
            "format_validate", NamedFormat.class, String.class, NamedFormat::validate));
    return bindings;
  }

  private static Map<String, NamedFormat> formats() {
    Map<String, NamedFormat> f = new LinkedHashMap<>();
    f.put("dns1123Label", regex("dns1123Label", DNS1123_LABEL, 63, "a lowercase RFC 1123 label"));
    f.put("dns1123Subdomain",
        regex("dns1123Subdomain", DNS1123_SUBDOMAIN, 253, "a lowercase RFC 1123 subdomain"));
    f.put("dns1035Label", regex("dns1035Label", DNS1035_LABEL, 63, "a DNS-1035 label"));
    f.put("qualifiedName", new NamedFormat("qualifiedName", FormatFunctions::qualifiedName));
    f.put("dns1123LabelPrefix", prefix(f.get("dns1123Label")));
    f.put("dns1123SubdomainPrefix", prefix(f.get("dns1123Subdomain")));
    f.put("dns1035LabelPrefix", prefix(f.get("dns1035Label")));
    f.put("labelValue", new NamedFormat("labelValue", s -> s.isEmpty() ? List.of()
        : regex("labelValue", NAME, 63, "a valid label").rule.apply(s)));
    f.put("uri", new NamedFormat("uri", s -> UrlFunctions.ParsedUrl.parse(s) != null
        ? List.of() : List.of("invalid URI")));
    f.put("uuid", new NamedFormat("uuid",
        s -> UUID.matches(s) ? List.of() : List.of("does not match the UUID format")));
    f.put("byte", new NamedFormat("byte", FormatFunctions::base64));
    f.put("date",
        new NamedFormat("date", s -> parses(() -> LocalDate.parse(s), "an RFC3339 date")));
    f.put("datetime", new NamedFormat("datetime",
        s -> parses(() -> OffsetDateTime.parse(s), "an RFC3339 date-time")));
    return Map.copyOf(f);
  }

  private static NamedFormat regex(String name, Pattern pattern, int max, String what) {
    return new NamedFormat(name, s -> {
      List<String> errors = new ArrayList<>();
      if (s.length() > max) {
        errors.add("must be no more than " + max + " characters");
      }
      if (!pattern.matches(s)) {
        errors.add(what + " must match the regex " + pattern.pattern());
      }
      return errors;
    });
  }

  private static NamedFormat prefix(NamedFormat base) {
    return new NamedFormat(base.name + "Prefix",
        s -> base.rule.apply(s.endsWith("-") ? s.substring(0, s.length() - 1) : s));
  }

  private static List<String> qualifiedName(String s) {
    String[] parts = s.split("/", -1);
    if (parts.length > 2) {
      return List.of(
          "a qualified name must consist of alphanumeric characters, '-', '_' or '.', with an optional DNS subdomain prefix and '/'");
    }
    List<String> errors = new ArrayList<>();
    String name = parts[parts.length - 1];
    if (parts.length == 2) {
      errors.addAll(regex("prefix", DNS1123_SUBDOMAIN, 253, "prefix part").rule.apply(parts[0]));
    }
    if (name.isEmpty()) {
      errors.add("name part must be non-empty");
    } else {
      errors.addAll(regex("name", NAME, 63, "name part").rule.apply(name));
    }
    return errors;
  }

  private static List<String> base64(String s) {
    try {
      Base64.getDecoder().decode(s);
      return List.of();
    } catch (IllegalArgumentException e) {
      return List.of("invalid base64");
    }
  }

  private static List<String> parses(Runnable parse, String what) {
    try {
      parse.run();
      return List.of();
    } catch (DateTimeParseException e) {
      return List.of("must be " + what);
    }
  }

  /** A format's check: the errors of a value, none when it is valid. */
  @Immutable
  @FunctionalInterface
  interface Rule {
    List<String> apply(String value);
  }

  /** A named format; {@code validate} yields the errors or none. Immutable. */
  @Immutable
  static final class NamedFormat {
    private final String name;
    private final Rule rule;

    NamedFormat(String name, Rule rule) {
      this.name = name;
      this.rule = rule;
    }

    Optional<List<String>> validate(String value) {
      List<String> errors = rule.apply(value);
      return errors.isEmpty() ? Optional.empty() : Optional.of(List.copyOf(errors));
    }

    @Override
    public String toString() {
      return "format." + name;
    }
  }
}
