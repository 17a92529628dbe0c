package io.github.dra4j.cel;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.ast.CelConstant;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.ast.CelExpr.ExprKind.Kind;
import dev.cel.common.types.CelKind;
import dev.cel.common.types.CelType;
import dev.cel.common.types.SimpleType;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the cost estimator knows while it walks one expression (the bookkeeping of cel-go's
 * {@code coster}): the field path of each expression from a declared variable, the local and
 * iteration variables in scope, and the sizes of strings, lists and maps found so far, with the
 * sizes of the entries of lists and maps built in the expression. Sizes come from the expression
 * itself first, then from the {@link CostModel}, then from the type. Not thread-safe.
 */
final class CostScope {

  private static final String ACCUMULATOR = "@result";
  private static final String LEGACY_ACCUMULATOR = "__result__";

  /** The container kind of a list or map and the sizes of its keys (indices) and values. */
  record EntrySize(CelKind container, CostRange key, CostRange value) {
    /** Returns the union of two entry sizes; null when either is unknown. */
    static EntrySize union(EntrySize a, EntrySize b) {
      if (a == null || b == null) {
        return null;
      }
      return new EntrySize(a.container, a.key.union(b.key), a.value.union(b.value));
    }
  }

  private record LocalVar(List<String> path, CostRange size, EntrySize entrySize) {}

  private final CelAbstractSyntaxTree ast;
  private final CostModel model;
  private final Map<Long, List<String>> paths = new HashMap<>();
  private final Map<String, Deque<LocalVar>> locals = new HashMap<>();
  private final Map<Long, CostRange> sizes = new HashMap<>();
  private final Map<Long, EntrySize> entrySizes = new HashMap<>();

  CostScope(CelAbstractSyntaxTree ast, CostModel model) {
    this.ast = ast;
    this.model = model;
  }

  /** Records the field path of an expression. */
  void setPath(CelExpr e, List<String> path) {
    paths.put(e.id(), path);
  }

  /** Whether a local or iteration variable of the name is in scope. */
  boolean isLocal(String name) {
    return peek(name) != null;
  }

  /** Returns the path of the variable in scope (null when it has none); see {@link #isLocal}. */
  List<String> localPath(String name) {
    LocalVar local = peek(name);
    return local == null ? null : local.path;
  }

  /**
   * Declares an iteration variable over {@code range}: the key (index) when {@code key}, else the
   * value; {@code single} is the one-variable form, whose variable is the key of a map but the
   * element of a list.
   */
  void pushIteration(String name, CelExpr range, boolean key, boolean single) {
    EntrySize entries = computeEntrySize(range);
    CelKind container = entries != null ? entries.container : typeOf(range).kind();
    boolean list = container == CelKind.LIST;
    CostRange size;
    String step;
    if (single) {
      size = entries == null ? null : list ? entries.value : entries.key;
      step = list ? "@items" : "@keys";
    } else if (key) {
      size = entries == null ? null : entries.key;
      step = list ? "@indices" : "@keys";
    } else {
      size = entries == null ? null : entries.value;
      step = list ? "@items" : "@values";
    }
    push(name, new LocalVar(append(pathOf(range), step), size, null));
  }

  void pushLocal(String name, CelExpr value) {
    push(name, new LocalVar(pathOf(value), computeSize(value), computeEntrySize(value)));
  }

  private void push(String name, LocalVar variable) {
    locals.computeIfAbsent(name, n -> new ArrayDeque<>()).push(variable);
  }

  void pop(String name) {
    Deque<LocalVar> stack = locals.get(name);
    if (stack != null && !stack.isEmpty()) {
      stack.pop();
    }
  }

  private LocalVar peek(String name) {
    Deque<LocalVar> stack = locals.get(name);
    return stack == null ? null : stack.peek();
  }

  static boolean isAccumulator(String name) {
    return name.equals(ACCUMULATOR) || name.equals(LEGACY_ACCUMULATOR);
  }

  CelType typeOf(CelExpr e) {
    return ast.getType(e.id()).orElse(SimpleType.DYN);
  }

  List<String> pathOf(CelExpr e) {
    if (e.exprKind().getKind() == Kind.IDENT) {
      LocalVar local = peek(e.ident().name());
      if (local != null) {
        return local.path;
      }
    }
    return paths.get(e.id());
  }

  static List<String> append(List<String> path, String element) {
    List<String> result = new ArrayList<>(path == null ? 1 : path.size() + 1);
    if (path != null) {
      result.addAll(path);
    }
    result.add(element);
    return List.copyOf(result);
  }

  CostNode node(CelExpr e) {
    List<String> path = pathOf(e);
    if (path != null && !path.isEmpty() && isAccumulator(path.get(0))) {
      path = null;
    }
    return new CostNode(path, typeOf(e), e, computeSize(e));
  }

  void setSize(CelExpr e, CostRange size) {
    if (size != null) {
      sizes.put(e.id(), size);
    }
  }

  /** Returns the computed size of a node, or unknown. */
  static CostRange sizeOrUnknown(CostNode node) {
    return node.computedSize() != null ? node.computedSize() : CostRange.UNKNOWN;
  }

  CostRange sizeOrUnknown(CelExpr e) {
    CostRange size = computeSize(e);
    return size != null ? size : CostRange.UNKNOWN;
  }

  void copySizes(CelExpr destination, CelExpr source) {
    setSize(destination, computeSize(source));
    setEntrySize(destination, computeEntrySize(source));
  }

  CostRange computeSize(CelExpr e) {
    CostRange known = sizes.get(e.id());
    if (known != null) {
      return known;
    }
    CostRange literal = literalSize(e);
    if (literal != null) {
      return literal;
    }
    CostRange estimated = model.estimateSize(new CostNode(pathOf(e), typeOf(e), e, null));
    if (estimated != null) {
      sizes.put(e.id(), estimated);
      return estimated;
    }
    if (isScalar(typeOf(e))) {
      return CostRange.fixed(1);
    }
    if (e.exprKind().getKind() == Kind.IDENT) {
      LocalVar local = peek(e.ident().name());
      if (local != null && local.size != null) {
        return local.size;
      }
    }
    return null;
  }

  void setEntrySize(CelExpr e, EntrySize size) {
    if (size != null) {
      entrySizes.put(e.id(), size);
    }
  }

  EntrySize computeEntrySize(CelExpr e) {
    EntrySize known = entrySizes.get(e.id());
    if (known != null) {
      return known;
    }
    if (e.exprKind().getKind() == Kind.IDENT) {
      LocalVar local = peek(e.ident().name());
      if (local != null) {
        return local.entrySize;
      }
    }
    return null;
  }

  private static CostRange literalSize(CelExpr e) {
    switch (e.exprKind().getKind()) {
      case CONSTANT -> {
        CelConstant constant = e.constant();
        switch (constant.getKind()) {
          case STRING_VALUE :
            String text = constant.stringValue();
            return CostRange.fixed(text.codePointCount(0, text.length()));
          case BYTES_VALUE :
            return CostRange.fixed(constant.bytesValue().size());
          case NOT_SET :
            return null;
          default :
            return CostRange.fixed(1);
        }
      }
      case LIST -> {
        return CostRange.fixed(e.list().elements().size());
      }
      case MAP -> {
        return CostRange.fixed(e.map().entries().size());
      }
      default -> {
        return null;
      }
    }
  }

  /** Whether values of the type have a size known at compile time: cel-go's {@code isScalar}. */
  static boolean isScalar(CelType type) {
    return switch (type.kind()) {
      case BOOL, DOUBLE, DURATION, INT, TIMESTAMP, UINT -> true;
      case OPAQUE ->
        type.name().equals("optional_type")
            && !type.parameters().isEmpty()
            && isScalar(type.parameters().get(0));
      default -> false;
    };
  }
}
