package io.github.dra4j.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.types.CelType;
import dev.cel.common.types.ListType;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerBuilder;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.parser.CelStandardMacro;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks expressions with every library of the stored environment plus variables of the shapes
 * cel-go's and Kubernetes' cost tests declare, and estimates their cost with a given size model.
 */
final class CostTestCompiler {

  /** The variables, by name: cel-go's test declarations, one name per type. */
  static final Map<String, CelType> VARIABLES = variables();

  private static final CelCompiler COMPILER = compiler();

  private CostTestCompiler() {}

  private static Map<String, CelType> variables() {
    CelType ints = ListType.create(SimpleType.INT);
    CelType intMap = MapType.create(SimpleType.STRING, SimpleType.INT);
    Map<String, CelType> variables = new LinkedHashMap<>();
    variables.put("ints", ints);
    variables.put("nested", ListType.create(ints));
    variables.put("strMap", MapType.create(SimpleType.STRING, SimpleType.STRING));
    variables.put("objects", MapType.create(SimpleType.STRING, intMap));
    variables.put("nestedMap", MapType.create(SimpleType.STRING,
        MapType.create(SimpleType.STRING, intMap)));
    variables.put("text", SimpleType.STRING);
    variables.put("arg1", SimpleType.STRING);
    variables.put("str1", SimpleType.STRING);
    variables.put("str2", SimpleType.STRING);
    variables.put("data", SimpleType.BYTES);
    variables.put("x", SimpleType.INT);
    variables.put("input1", ints);
    variables.put("input2", ints);
    variables.put("list1", ints);
    variables.put("list2", ints);
    return Map.copyOf(variables);
  }

  private static CelCompiler compiler() {
    CelOptions options = CelOptions.current()
        .enableHeterogeneousNumericComparisons(true)
        .enableOptionalSyntax(true)
        .build();
    DeviceType device = new DeviceType(true, true);
    VersionedOptions versioned = new VersionedOptions(
        options, new EqualityFunctions(options), device, KubernetesVersion.of(1, 31));
    CelCompilerBuilder builder = CelCompilerFactory.standardCelCompilerBuilder()
        .setOptions(options)
        .setStandardMacros(CelStandardMacro.STANDARD_MACROS);
    VersionedOptions.addTo(builder, versioned.all());
    VARIABLES.forEach(builder::addVar);
    return builder.build();
  }

  /** Checks an expression (of any result type). */
  static CelAbstractSyntaxTree check(String expression) {
    try {
      return COMPILER.compile(expression).getAst();
    } catch (CelValidationException e) {
      throw new IllegalArgumentException(e.getMessage(), e);
    }
  }

  /** A size model that knows the sizes of variable paths ({@code "ints"}, {@code "a.@items"}). */
  static CostModel hints(Map<String, Long> maxSizes) {
    return new CostModel() {
      @Override
      public CostRange estimateSize(CostNode node) {
        if (node.path() == null) {
          return null;
        }
        Long max = maxSizes.get(String.join(".", node.path()));
        return max == null ? null : new CostRange(0, max);
      }

      @Override
      public CallCost estimateCall(
          String function, String overloadId, CostNode target, List<CostNode> args) {
        return null;
      }
    };
  }

  /** The size model of Kubernetes' library cost tests: strings and bytes of up to 12. */
  static final CostModel KUBERNETES_TEST_SIZES = new CostModel() {
    @Override
    public CostRange estimateSize(CostNode node) {
      return switch (node.type().kind()) {
        case STRING, BYTES -> new CostRange(0, 12);
        default -> null;
      };
    }

    @Override
    public CallCost estimateCall(
        String function, String overloadId, CostNode target, List<CostNode> args) {
      return null;
    }
  };

  /** No overload-bound estimates (cel-go's checker tests configure none). */
  static final OverloadCosts NO_OVERLOAD_COSTS = (model, id, target, args, argCosts) -> null;
}
