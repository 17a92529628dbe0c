package io.github.dra4j.cel;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import com.google.common.collect.ImmutableList;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.CelValidationResult;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.CelTypes;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
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
import io.github.dra4j.core.option.OptionChecks;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.regex.Pattern;
import java.util.stream.LongStream;

/**
 * A CEL environment Kubernetes compiles DRA device selectors in, built on cel-java. Kubernetes has
 * two, built from one list of options:
 *
 * <ul>
 *   <li>{@linkplain #stored() stored expressions}: everything, whatever the version and the
 *       feature gates. The scheduler always compiles with it, and the API server for stored
 *       expressions that did not change. This is what decides allocations.
 *   <li>{@linkplain #newExpressions new expressions}: what an API server accepts when a selector
 *       is created or changed: only the options introduced at or before its compatibility
 *       version, plus the gated additions whose gate is on ({@link NewExpressionOptions}). A
 *       selector that compiles in the stored environment but not here would be rejected by that
 *       API server when newly written.
 * </ul>
 *
 * <p>The stored environment declares the {@code device} variable ({@code kubernetes.DRADevice}:
 * {@code driver}, {@code attributes}, {@code capacity}, {@code allowMultipleAllocations}), the
 * standard macros, optional syntax, cross-type numeric comparisons, homogeneous literals (except
 * in {@code format()} arguments), the cel extensions Kubernetes enables (strings without {@code
 * reverse}, sets, lists, two-variable comprehensions, {@code cel.bind}) and the Kubernetes
 * libraries (quantity, semver, lists, regex, URL, IP, CIDR, format, {@code string.format}, {@code
 * includes}). Error texts follow Kubernetes.
 *
 * <p>A runaway expression is stopped: an evaluation may run at most {@value #MAX_ITERATIONS}
 * comprehension iterations in total and {@code lists.range()} at most {@value #MAX_RANGE}
 * elements; beyond that it fails with {@code operation cancelled: actual cost limit exceeded}.
 * This stands in for cel-go's runtime cost tracker, whose numbers it does not reproduce. The
 * static estimate the API server checks new selectors against ({@value #COST_LIMIT}) is
 * reproduced: {@link CompiledSelector#estimatedMaxCost()}.
 *
 * <p>Building an environment is expensive (hundreds of milliseconds in a fresh JVM); use the
 * shared {@link #stored()} instance. An environment is immutable apart from its bounded,
 * thread-safe caches (compiled expressions, parsed quantity literals, regular expressions): {@link
 * #compile} may be called from any thread, and compiled selectors are immutable.
 *
 * <p>{@code device.allowMultipleAllocations} follows consumable capacity (Kubernetes feature gate
 * {@code DRAConsumableCapacity}, beta in 1.36); list-valued attributes and {@code includes()}
 * follow list-typed attributes ({@code DRAListTypeAttributes}, alpha in 1.36). Both may still
 * change in Kubernetes.
 */
public final class DeviceSelectorEnvironment {

  /** The name of the CEL variable holding the device. */
  public static final String VARIABLE = "device";

  /** Comprehension iterations allowed per evaluation (stand-in for the cost limit). */
  public static final int MAX_ITERATIONS = 250_000;

  /** Largest list {@code lists.range()} may build. */
  public static final int MAX_RANGE = 100_000;

  /**
   * The largest estimated cost the API server accepts in a new or changed selector, {@code
   * resource.CELSelectorExpressionMaxCost}; see {@link CompiledSelector#estimatedMaxCost()}.
   */
  public static final long COST_LIMIT = 1_000_000L;

  /** Default number of compiled expressions kept. */
  public static final int DEFAULT_CACHE_SIZE = 1024;

  private static final KubernetesVersion DRA_INTRODUCED = KubernetesVersion.of(1, 31);

  private static final Pattern CANDIDATES = Pattern.compile(" \\(candidates: [^\\n]*");
  private static final Pattern ERROR_PREFIX = Pattern.compile("(ERROR: <input>:[0-9]+:[0-9]+: )",
      Pattern.MULTILINE);
  private static final Pattern TYPE_PARAM = Pattern.compile("%[A-Z]+[0-9]+");

  private final NewExpressionOptions newExpressions;
  private final CelCompiler compiler;
  private final CelRuntime runtime;
  private final CelValidator literalValidator;
  private final Cache<String, CompiledSelector> cache;

  /**
   * Builds an environment.
   *
   * @param newExpressions the API server to validate new expressions like, or null for the stored
   *     environment
   * @param cacheSize the compile cache's size
   */
  private DeviceSelectorEnvironment(NewExpressionOptions newExpressions, int cacheSize) {
    this.newExpressions = newExpressions;
    CelOptions options = CelOptions.current()
        .enableHeterogeneousNumericComparisons(true)
        .enableOptionalSyntax(true)
        .comprehensionMaxIterations(MAX_ITERATIONS)
        .build();
    EqualityFunctions equality = new EqualityFunctions(options);
    boolean stored = newExpressions == null;
    DeviceType device = new DeviceType(stored || newExpressions.consumableCapacity(),
        stored || newExpressions.listTypeAttributes());
    KubernetesVersion draIntroduced = !stored
        && newExpressions.serverVersion().equals(DRA_INTRODUCED)
            ? KubernetesVersion.of(1, 0)
            : DRA_INTRODUCED;
    VersionedOptions versioned = new VersionedOptions(options, equality, device, draIntroduced);
    CelCompilerBuilder compilerBuilder = CelCompilerFactory.standardCelCompilerBuilder()
        .setOptions(options)
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS);
    VersionedOptions.addTo(compilerBuilder, stored
        ? versioned.all()
        : versioned.all().stream().filter(o -> o.offeredTo(newExpressions)).toList());
    this.compiler = compilerBuilder.build();
    List<CelFunctionBinding> bindings = new ArrayList<>(equality.bindings());
    versioned.functions().forEach(library -> bindings.addAll(library.bindings()));
    bindings.add(
        CelFunctionBinding.from("lists_range", Long.class, DeviceSelectorEnvironment::range));
    this.runtime = CelRuntimeFactory.legacyCelRuntimeBuilder()
        .setOptions(options)
        .setStandardEnvironmentEnabled(false)
        .setStandardFunctions(standardFunctionsWithoutOverridden())
        .addFunctionBindings(bindings)
        .addLibraries(
            CelExtensions.comprehensions(),
            CelExtensions.optional(),
            CelExtensions.sets(options),
            VersionedOptions.lists(),
            VersionedOptions.strings())
        .build();
    this.literalValidator = CelValidatorFactory.standardCelValidatorBuilder(compiler, runtime)
        .addAstValidators(HomogeneousLiteralValidator.newInstance("format"))
        .build();
    this.cache = CacheBuilder.newBuilder().maximumSize(cacheSize).build();
  }

  /** Holds the shared stored-expressions environment; the JVM builds it on first use, once. */
  private static final class StoredHolder {
    static final DeviceSelectorEnvironment INSTANCE = new DeviceSelectorEnvironment(null,
        DEFAULT_CACHE_SIZE);
  }

  /**
   * Returns the shared stored-expressions environment: the one the scheduler compiles with,
   * offering everything regardless of versions and feature gates. Built on first use (once per
   * JVM, thread-safe), with a compile cache of {@value #DEFAULT_CACHE_SIZE} expressions shared by
   * all its users.
   *
   * @return the same instance on every call
   */
  public static DeviceSelectorEnvironment stored() {
    return StoredHolder.INSTANCE;
  }

  /**
   * Builds a new stored-expressions environment with its own compile cache of the default size.
   * Prefer the shared {@link #stored()}; a private instance only costs build time and memory.
   *
   * @return a new environment that behaves like {@link #stored()}
   */
  public static DeviceSelectorEnvironment create() {
    return new DeviceSelectorEnvironment(null, DEFAULT_CACHE_SIZE);
  }

  /**
   * Builds a new stored-expressions environment with a compile cache holding up to {@code
   * cacheSize} expressions (least recently used ones are dropped).
   *
   * @param cacheSize at least 1
   * @return a new environment that behaves like {@link #stored()}
   * @throws IllegalArgumentException if {@code cacheSize} is less than 1
   */
  public static DeviceSelectorEnvironment create(int cacheSize) {
    return new DeviceSelectorEnvironment(null, OptionChecks.atLeast(cacheSize, 1, "cacheSize"));
  }

  /**
   * Builds the new-expressions environment of an API server: selectors that do not compile in it
   * would be rejected when created or changed on that server (with the compile error as the
   * detail of Kubernetes' {@code Invalid value} error). Each call builds a new environment; keep
   * it for all the selectors to check.
   *
   * <p>With {@code DRAListTypeAttributes} off, attribute values are typed {@code any}, as before
   * Kubernetes 1.36: they compare like any value but a macro over one ({@code
   * attr.all(v, ...)}) does not compile, and {@code includes()} is not declared.
   *
   * @param server the API server's version, compatibility version and feature gates
   * @return a new environment that compiles like that server validates new expressions
   * @throws NullPointerException if {@code server} is null
   */
  public static DeviceSelectorEnvironment newExpressions(NewExpressionOptions server) {
    return new DeviceSelectorEnvironment(
        Objects.requireNonNull(server, "server"), DEFAULT_CACHE_SIZE);
  }

  /**
   * Tells which API server this environment validates new expressions for.
   *
   * @return the options given to {@link #newExpressions}; empty for a stored-expressions
   *     environment
   */
  public Optional<NewExpressionOptions> newExpressionOptions() {
    return Optional.ofNullable(newExpressions);
  }

  /**
   * Describes the environment.
   *
   * @return {@code DeviceSelectorEnvironment[stored expressions]}, or for a new-expressions
   *     environment the API server it stands for
   */
  @Override
  public String toString() {
    return "DeviceSelectorEnvironment["
        + (newExpressions == null ? "stored expressions" : "new expressions of a " + newExpressions)
        + "]";
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
    if (type.kind() != CelKind.BOOL && type.kind() != CelKind.DYN && type.kind() != CelKind.ANY) {
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
      return new CompiledSelector(expression, runtime.createProgram(ast), ast);
    } catch (CelEvaluationException e) {
      throw new SelectorCompileException(
          expression, "program instantiation failed: " + e.getMessage(), e);
    }
  }

  private static String normalize(String celJavaErrors) {
    String text = CANDIDATES.matcher(celJavaErrors).replaceAll("");
    return TYPE_PARAM.matcher(text).replaceAll("dyn");
  }

  /** Standard functions minus the overloads {@link EqualityFunctions} replaces. */
  private static CelStandardFunctions standardFunctionsWithoutOverridden() {
    return CelStandardFunctions.newBuilder()
        .filterFunctions(
            (function, overload) -> overload != EqualsOverload.EQUALS
                && overload != NotEqualsOverload.NOT_EQUALS
                && overload != InOverload.IN_MAP)
        .build();
  }

  private static List<Long> range(Long n) throws CelEvaluationException {
    if (n > MAX_RANGE) {
      throw FunctionLibrary.error(RuntimeErrors.COST_LIMIT_EXCEEDED);
    }
    return ImmutableList.copyOf(LongStream.range(0, Math.max(0, n)).boxed().iterator());
  }
}
