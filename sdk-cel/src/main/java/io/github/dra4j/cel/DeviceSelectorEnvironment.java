package io.github.dra4j.cel;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.collect.ImmutableCollection;
import com.google.common.collect.ImmutableList;
import com.google.common.collect.ImmutableSet;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelFunctionDecl;
import dev.cel.common.CelOptions;
import dev.cel.common.CelOverloadDecl;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypeProvider;
import dev.cel.common.types.CelTypes;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.common.types.StructType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.extensions.CelListsExtensions;
import dev.cel.extensions.CelStringExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.cel.runtime.CelStandardFunctions;
import dev.cel.runtime.standard.EqualsOperator.EqualsOverload;
import dev.cel.runtime.standard.InOperator.InOverload;
import dev.cel.runtime.standard.NotEqualsOperator.NotEqualsOverload;
import dev.cel.validator.CelValidator;
import dev.cel.validator.CelValidatorFactory;
import dev.cel.validator.validators.HomogeneousLiteralValidator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

/**
 * The CEL environment Kubernetes uses for DRA device selectors (the "stored expressions"
 * environment the scheduler compiles with), built on cel-java.
 *
 * <p>It declares the {@code device} variable ({@code kubernetes.DRADevice}: {@code driver},
 * {@code attributes}, {@code capacity}, {@code allowMultipleAllocations}), the standard macros,
 * optional syntax, cross-type numeric comparisons, homogeneous literals (except in {@code
 * format()} arguments), the cel extensions
 * Kubernetes enables (strings without {@code reverse}, sets, lists, two-variable comprehensions,
 * {@code cel.bind}) and the Kubernetes libraries (quantity, semver, lists, regex, URL, IP, CIDR,
 * format, {@code string.format}, {@code includes}). Error texts follow Kubernetes.
 *
 * <p>A runaway expression is stopped: an evaluation may run at most {@value #MAX_ITERATIONS}
 * comprehension iterations in total and {@code lists.range()} at most {@value #MAX_RANGE}
 * elements; beyond that it fails with {@code operation cancelled: actual cost limit exceeded}.
 * This stands in for cel-go's cost tracker, whose numbers it does not reproduce.
 *
 * <p>Building an environment is expensive (hundreds of milliseconds); build one and share it. It
 * is immutable apart from its compile cache, which is thread-safe: {@link #compile} may be called
 * from any thread, and compiled selectors are immutable.
 */
public final class DeviceSelectorEnvironment {

  /** The name of the CEL variable holding the device. */
  public static final String VARIABLE = "device";

  static final String FIELD_DRIVER = "driver";
  static final String FIELD_ATTRIBUTES = "attributes";
  static final String FIELD_CAPACITY = "capacity";
  static final String FIELD_ALLOW_MULTIPLE = "allowMultipleAllocations";

  /** Comprehension iterations allowed per evaluation (stand-in for the cost limit). */
  public static final int MAX_ITERATIONS = 250_000;

  /** Largest list {@code lists.range()} may build. */
  public static final int MAX_RANGE = 100_000;

  /** Default number of compiled expressions kept. */
  public static final int DEFAULT_CACHE_SIZE = 1024;

  private static final Pattern CANDIDATES = Pattern.compile(" \\(candidates: [^\\n]*");
  private static final Pattern ERROR_PREFIX =
      Pattern.compile("(ERROR: <input>:[0-9]+:[0-9]+: )", Pattern.MULTILINE);
  private static final Pattern TYPE_PARAM = Pattern.compile("%[A-Z]+[0-9]+");

  private final CelCompiler compiler;
  private final CelRuntime runtime;
  private final CelValidator literalValidator;
  private final Cache<String, CompiledSelector> cache;

  private DeviceSelectorEnvironment(int cacheSize) {
    CelOptions options =
        CelOptions.current()
            .enableHeterogeneousNumericComparisons(true)
            .enableOptionalSyntax(true)
            .comprehensionMaxIterations(MAX_ITERATIONS)
            .build();
    EqualityFunctions equality = new EqualityFunctions(options);
    List<FunctionLibrary> libraries =
        List.of(
            new QuantityFunctions(),
            new SemverFunctions(),
            new ListFunctions(equality),
            new RegexFunctions(),
            new IncludesFunction(equality),
            new StringFormatFunction(),
            new NetworkFunctions(),
            new UrlFunctions(),
            new FormatFunctions(),
            new SortByFunction());
    StructType deviceType = deviceType();
    this.compiler =
        CelCompilerFactory.standardCelCompilerBuilder()
            .setOptions(options)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addMacros(SortByFunction.macro())
            .setTypeProvider(new DeviceTypeProvider(deviceType))
            .addVar(VARIABLE, deviceType)
            .addLibraries(
                CelExtensions.bindings(),
                CelExtensions.comprehensions(),
                CelExtensions.optional(),
                CelExtensions.sets(options),
                lists(),
                strings())
            .addFunctionDeclarations(mergedDeclarations(libraries))
            .build();
    List<CelFunctionBinding> bindings = new ArrayList<>(equality.bindings());
    libraries.forEach(library -> bindings.addAll(library.bindings()));
    bindings.add(
        CelFunctionBinding.from("lists_range", Long.class, DeviceSelectorEnvironment::range));
    this.runtime =
        CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(options)
            .setStandardEnvironmentEnabled(false)
            .setStandardFunctions(standardFunctionsWithoutOverridden())
            .addFunctionBindings(bindings)
            .addLibraries(
                CelExtensions.comprehensions(),
                CelExtensions.optional(),
                CelExtensions.sets(options),
                lists(),
                strings())
            .build();
    this.literalValidator =
        CelValidatorFactory.standardCelValidatorBuilder(compiler, runtime)
            .addAstValidators(HomogeneousLiteralValidator.newInstance("format"))
            .build();
    this.cache = CacheBuilder.newBuilder().maximumSize(cacheSize).build();
  }

  /**
   * Builds the environment with the default compile cache size.
   *
   * @return a new environment
   */
  public static DeviceSelectorEnvironment create() {
    return new DeviceSelectorEnvironment(DEFAULT_CACHE_SIZE);
  }

  /**
   * Builds the environment with a compile cache holding up to {@code cacheSize} expressions
   * (least recently used ones are dropped).
   *
   * @param cacheSize at least 1
   * @return a new environment
   */
  public static DeviceSelectorEnvironment create(int cacheSize) {
    if (cacheSize < 1) {
      throw new IllegalArgumentException("cacheSize must be at least 1, was " + cacheSize);
    }
    return new DeviceSelectorEnvironment(cacheSize);
  }

  /**
   * Compiles a selector expression, or returns the cached compilation of the same text. Only
   * successful compilations are cached.
   *
   * @param expression the CEL expression of a {@code selectors[].cel.expression}
   * @return the compiled selector
   * @throws SelectorCompileException with the Kubernetes-style text when the expression does not
   *     compile, does not evaluate to bool (or dyn), or has an invalid literal argument
   */
  public CompiledSelector compile(String expression) throws SelectorCompileException {
    Objects.requireNonNull(expression, "expression");
    CompiledSelector cached = cache.getIfPresent(expression);
    if (cached != null) {
      return cached;
    }
    try {
      return cache.get(expression, () -> compileUncached(expression));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof SelectorCompileException) {
        throw (SelectorCompileException) e.getCause();
      }
      throw new IllegalStateException("compiling " + expression, e.getCause());
    }
  }

  private CompiledSelector compileUncached(String expression) throws SelectorCompileException {
    CelValidationResult parsed = compiler.parse(expression);
    if (parsed.hasError()) {
      String errors = ERROR_PREFIX.matcher(normalize(parsed.getErrorString()))
          .replaceAll("$1Syntax error: ");
      throw new SelectorCompileException(expression, "compilation failed: " + errors, null);
    }
    CelValidationResult result;
    try {
      result = compiler.check(parsed.getAst());
    } catch (CelValidationException e) {
      throw new SelectorCompileException(expression, "compilation failed: " + e.getMessage(), e);
    }
    if (result.hasError()) {
      throw new SelectorCompileException(
          expression, "compilation failed: " + normalize(result.getErrorString()), null);
    }
    CelAbstractSyntaxTree ast;
    try {
      ast = result.getAst();
    } catch (CelValidationException e) {
      throw new SelectorCompileException(expression, "compilation failed: " + e.getMessage(), e);
    }
    CelValidationResult literals = literalValidator.validate(ast);
    if (literals.hasError()) {
      throw new SelectorCompileException(
          expression, "compilation failed: " + normalize(literals.getErrorString()), null);
    }
    CelType type = ast.getResultType();
    if (type.kind() != CelKind.BOOL && type.kind() != CelKind.DYN) {
      throw new SelectorCompileException(
          expression,
          "must evaluate to bool or the unknown type, not " + CelTypes.format(type),
          null);
    }
    Optional<String> literalProblem = LiteralChecks.firstProblem(expression, ast);
    if (literalProblem.isPresent()) {
      throw new SelectorCompileException(expression, literalProblem.get(), null);
    }
    try {
      return new CompiledSelector(expression, runtime.createProgram(ast));
    } catch (CelEvaluationException e) {
      throw new SelectorCompileException(
          expression, "program instantiation failed: " + e.getMessage(), e);
    }
  }

  private static String normalize(String celJavaErrors) {
    String text = CANDIDATES.matcher(celJavaErrors).replaceAll("");
    return TYPE_PARAM.matcher(text).replaceAll("dyn");
  }

  private static StructType deviceType() {
    CelType inner = MapType.create(SimpleType.STRING, SimpleType.DYN);
    CelType attributes = MapType.create(SimpleType.STRING, inner);
    CelType capacity =
        MapType.create(SimpleType.STRING, MapType.create(SimpleType.STRING, KubernetesTypes.QUANTITY));
    Map<String, CelType> fields = new LinkedHashMap<>();
    fields.put(FIELD_DRIVER, SimpleType.STRING);
    fields.put(FIELD_ATTRIBUTES, attributes);
    fields.put(FIELD_CAPACITY, capacity);
    fields.put(FIELD_ALLOW_MULTIPLE, SimpleType.BOOL);
    Map<String, CelType> frozen = Map.copyOf(fields);
    return StructType.create(
        "kubernetes.DRADevice",
        ImmutableSet.copyOf(fields.keySet()),
        name -> Optional.ofNullable(frozen.get(name)));
  }

  /** The lists extension without its sortBy (replaced by {@link SortByFunction}). */
  private static CelListsExtensions lists() {
    return CelExtensions.lists(
        CelListsExtensions.Function.SLICE,
        CelListsExtensions.Function.FLATTEN,
        CelListsExtensions.Function.RANGE,
        CelListsExtensions.Function.DISTINCT,
        CelListsExtensions.Function.REVERSE,
        CelListsExtensions.Function.SORT);
  }

  private static CelStringExtensions strings() {
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

  /** Standard functions minus the overloads {@link EqualityFunctions} replaces. */
  private static CelStandardFunctions standardFunctionsWithoutOverridden() {
    return CelStandardFunctions.newBuilder()
        .filterFunctions(
            (function, overload) ->
                overload != EqualsOverload.EQUALS
                    && overload != NotEqualsOverload.NOT_EQUALS
                    && overload != InOverload.IN_MAP)
        .build();
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
    byName.forEach((name, overloads) -> merged.add(CelFunctionDecl.newFunctionDeclaration(name, overloads)));
    return merged;
  }

  private static List<Long> range(Long n) throws CelEvaluationException {
    if (n > MAX_RANGE) {
      throw FunctionLibrary.error(RuntimeErrors.COST_LIMIT_EXCEEDED);
    }
    return ImmutableList.copyOf(LongStream.range(0, Math.max(0, n)).boxed().iterator());
  }

  /** Makes {@code kubernetes.DRADevice} known to the type checker. */
  private static final class DeviceTypeProvider implements CelTypeProvider {
    private final StructType deviceType;

    DeviceTypeProvider(StructType deviceType) {
      this.deviceType = deviceType;
    }

    @Override
    public ImmutableCollection<CelType> types() {
      return ImmutableList.of(deviceType);
    }

    @Override
    public Optional<CelType> findType(String typeName) {
      return deviceType.name().equals(typeName) ? Optional.of(deviceType) : Optional.empty();
    }
  }
}
