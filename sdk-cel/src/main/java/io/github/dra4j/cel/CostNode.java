package io.github.dra4j.cel;

import dev.cel.common.ast.CelExpr;
import dev.cel.common.types.CelType;
import java.util.List;

/**
 * What the cost estimator tells a size or call estimator about one expression: cel-go's {@code
 * checker.AstNode}. Immutable.
 *
 * @param path the field path from a declared variable to the value ({@code ["device",
 *     "attributes", "@values", "model"]}); null when the value is not reached from a variable.
 *     Elements after the variable are field names, {@code @items}, {@code @indices}, {@code
 *     @keys} or {@code @values}
 * @param type the checked type of the value
 * @param expr the expression, or null for a list element that has no expression of its own
 * @param computedSize the size the expression itself tells (constants, literals, results of
 *     calls whose result size is known), or null
 */
record CostNode(List<String> path, CelType type, CelExpr expr, CostRange computedSize) {}
