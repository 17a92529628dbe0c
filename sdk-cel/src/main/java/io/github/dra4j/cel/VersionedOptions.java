package io.github.dra4j.cel;

import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelListsExtensions;
import dev.cel.extensions.CelStringExtensions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The one list of compile-time options both DRA environments are built from, each tagged with the
 * Kubernetes release that introduced it or the feature gate it needs. The stored-expressions
 * environment takes every entry; a new-expressions environment takes an untagged-by-gate entry
 * when its compatibility version is at least the entry's release, and a gated entry exactly when
 * the gate is on.
 *
 * <p>Only what the type checker sees is filtered: every environment evaluates with all function
 * bindings, because an expression that compiles never calls a function it could not declare.
 */
final class VersionedOptions {

  /** The feature gates that add options. */
  enum Gate {
    CONSUMABLE_CAPACITY, LIST_TYPE_ATTRIBUTES
  }

  private static final KubernetesVersion ALWAYS = KubernetesVersion.of(1, 0);

  /**
   * One entry: declarations of Kubernetes functions, cel-java compiler libraries and macros that
   * come together.
   *
   * @param name what the entry is, for messages and tests
   * @param introduced the release that introduced it (ignored when {@code gate} is set)
   * @param gate the feature gate it needs, or null
   * @param functions the Kubernetes function libraries whose declarations it adds
   * @param compiler what else it adds to the compiler: variables, cel-java extensions, macros
   */
  record Option(String name, KubernetesVersion introduced, Gate gate,
      List<FunctionLibrary> functions, Consumer<CelCompilerBuilder> compiler) {

    /** Returns whether an API server with these options offers the entry to new expressions. */
    boolean offeredTo(NewExpressionOptions server) {
      if (gate == Gate.CONSUMABLE_CAPACITY) {
        return server.consumableCapacity();
      }
      if (gate == Gate.LIST_TYPE_ATTRIBUTES) {
        return server.listTypeAttributes();
      }
      return server.compatibilityVersion().isAtLeast(introduced);
    }
  }

  private final List<Option> options;
  private final List<FunctionLibrary> functions;

  /**
   * Builds the list.
   *
   * @param celOptions the cel-java options (the sets extension needs them)
   * @param equality the equality the list and {@code includes()} functions use
   * @param device the type of the {@code device} variable
   * @param draIntroduced the release the DRA additions (the {@code device} variable, {@code
   *     cel.bind}, the strict semver functions) are tagged with: 1.31, except in a 1.31 API
   *     server, which tagged them 1.0
   */
  VersionedOptions(CelOptions celOptions, EqualityFunctions equality, DeviceType device,
      KubernetesVersion draIntroduced) {
    List<Option> list = new ArrayList<>();
    list.add(new Option("base libraries", ALWAYS, null,
        List.of(new QuantityFunctions(), new ListFunctions(equality), new RegexFunctions(),
            new UrlFunctions(), new StringFormatFunction()),
        c -> c.addLibraries(CelExtensions.optional(), CelExtensions.sets(celOptions), strings())));
    list.add(new Option("IP and CIDR libraries", KubernetesVersion.of(1, 30), null,
        List.of(new NetworkFunctions()), c -> {}));
    list.add(new Option("format library", KubernetesVersion.of(1, 31), null,
        List.of(new FormatFunctions()), c -> {}));
    list.add(new Option("DRA: device, cel.bind and semver", draIntroduced, null,
        List.of(SemverFunctions.strict()),
        c -> c.setTypeProvider(device)
            .addVar(DeviceSelectorEnvironment.VARIABLE, device.type())
            .addLibraries(CelExtensions.bindings())));
    list.add(new Option("two-variable comprehensions", KubernetesVersion.of(1, 32), null,
        List.of(), c -> c.addLibraries(CelExtensions.comprehensions())));
    list.add(new Option("semver normalize overloads", KubernetesVersion.of(1, 33), null,
        List.of(SemverFunctions.normalizing()), c -> {}));
    list.add(new Option("lists extension version 3", KubernetesVersion.of(1, 34), null,
        List.of(new SortByFunction()),
        c -> c.addLibraries(lists()).addMacros(SortByFunction.macro())));
    list.add(new Option("DRA: includes()", ALWAYS, Gate.LIST_TYPE_ATTRIBUTES,
        List.of(new IncludesFunction(equality)), c -> {}));
    this.options = List.copyOf(list);
    List<FunctionLibrary> all = new ArrayList<>();
    options.forEach(option -> all.addAll(option.functions()));
    this.functions = List.copyOf(all);
  }

  /** Returns every entry, in the order above. */
  List<Option> all() {
    return options;
  }

  /** Returns every Kubernetes function library of every entry (for the runtime). */
  List<FunctionLibrary> functions() {
    return functions;
  }

  /** Adds the given entries to a compiler; declarations of the same name are merged. */
  static void addTo(CelCompilerBuilder compiler, List<Option> chosen) {
    List<FunctionLibrary> functions = new ArrayList<>();
    for (Option option : chosen) {
      functions.addAll(option.functions());
      option.compiler().accept(compiler);
    }
    compiler.addFunctionDeclarations(mergedDeclarations(functions));
  }

  /** Merges declarations of the same function name (e.g. quantity and semver compareTo). */
  private static List<CelFunctionDecl> mergedDeclarations(List<FunctionLibrary> libraries) {
    Map<String, List<CelOverloadDecl>> byName = new LinkedHashMap<>();
    for (FunctionLibrary library : libraries) {
      for (CelFunctionDecl decl : library.declarations()) {
        byName.computeIfAbsent(decl.name(), n -> new ArrayList<>()).addAll(decl.overloads());
      }
    }
    List<CelFunctionDecl> merged = new ArrayList<>();
    byName.forEach(
        (name, overloads) -> merged.add(CelFunctionDecl.newFunctionDeclaration(name, overloads)));
    return merged;
  }

  /** The lists extension without its sortBy (replaced by {@link SortByFunction}). */
  static CelListsExtensions lists() {
    return CelExtensions.lists(
        CelListsExtensions.Function.SLICE,
        CelListsExtensions.Function.FLATTEN,
        CelListsExtensions.Function.RANGE,
        CelListsExtensions.Function.DISTINCT,
        CelListsExtensions.Function.REVERSE,
        CelListsExtensions.Function.SORT);
  }

  /** The strings extension version 2 as Kubernetes configures it: without {@code reverse}. */
  static CelStringExtensions strings() {
    return CelExtensions.strings(
        CelStringExtensions.Function.CHAR_AT,
        CelStringExtensions.Function.INDEX_OF,
        CelStringExtensions.Function.JOIN,
        CelStringExtensions.Function.LAST_INDEX_OF,
        CelStringExtensions.Function.LOWER_ASCII,
        CelStringExtensions.Function.QUOTE,
        CelStringExtensions.Function.REPLACE,
        CelStringExtensions.Function.SPLIT,
        CelStringExtensions.Function.SUBSTRING,
        CelStringExtensions.Function.TRIM,
        CelStringExtensions.Function.UPPER_ASCII);
  }
}
