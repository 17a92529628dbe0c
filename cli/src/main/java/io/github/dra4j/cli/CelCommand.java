package io.github.dra4j.cli;

import io.github.dra4j.cel.DeviceSelectorEnvironment;
import io.github.dra4j.cel.SelectorExplainer;
import io.github.dra4j.cel.SelectorExplanation;
import io.github.dra4j.cel.SelectorExplanation.Outcome;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code dra4j cel}: which published devices a selector matches, and why the others do not. The
 * slices file or the expression may be {@code -}, standard input (not both). Exit status 0 when
 * the expression compiled and evaluated on every device, 1 when it did not compile, failed on a
 * device (as the scheduler would fail the allocation) or the slices could not be read, 2 for bad
 * usage.
 */
@Command(name = "cel", mixinStandardHelpOptions = true, description = "Evaluate a CEL device selector against published devices and explain"
    + " which match and why the others do not.", exitCodeListHeading = "%nExit status:%n", exitCodeList = {
        "0:the expression evaluated on every device (matching or not)",
        "1:the expression does not compile, fails on a device, or the slices cannot be read",
        "2:bad usage"})
public final class CelCommand implements Callable<Integer> {

  /** Standard input, where a file or the expression is {@code -}. */
  static final String STANDARD_INPUT = "-";

  @Option(names = "--slices", required = true, paramLabel = "FILE", description = "YAML or JSON file of ResourceSlice objects (a list or documents);"
      + " - reads standard input")
  String slices;

  @Parameters(index = "0", paramLabel = "EXPRESSION", description = "the selector, e.g. 'device.driver == \"x.io\"'; - reads standard input")
  String expression;

  @Spec
  CommandSpec spec;

  private final InputStream in;

  /** A command reading standard input from {@link System#in}, for picocli to fill. */
  public CelCommand() {
    this(System.in);
  }

  /**
   * A command reading standard input from a stream, for picocli to fill.
   *
   * @param in what {@code -} reads
   */
  CelCommand(InputStream in) {
    this.in = in;
  }

  @Override
  public Integer call() {
    if (STANDARD_INPUT.equals(slices) && STANDARD_INPUT.equals(expression)) {
      throw new CommandLine.ParameterException(spec.commandLine(),
          "Only one of --slices and EXPRESSION can be - (standard input)");
    }
    SliceFile file;
    String selector;
    try {
      file = STANDARD_INPUT.equals(slices)
          ? SliceFile.read(in, "standard input") : SliceFile.read(Path.of(slices));
      selector = STANDARD_INPUT.equals(expression)
          ? new String(in.readAllBytes(), StandardCharsets.UTF_8).strip() : expression;
    } catch (NoSuchFileException e) {
      return fail("--slices: no such file: " + e.getFile());
    } catch (IOException e) {
      return fail(e.getMessage());
    }
    if (selector.isEmpty()) {
      return fail("EXPRESSION: standard input held no expression");
    }
    SelectorExplanation explanation = file
        .explain(new SelectorExplainer(DeviceSelectorEnvironment.create()), selector);
    spec.commandLine().getOut().print(explanation.render());
    spec.commandLine().getOut().flush();
    return explanation.compileError().isPresent() || explanation.count(Outcome.ERROR) > 0 ? 1 : 0;
  }

  private int fail(String message) {
    spec.commandLine().getErr().println("dra4j cel: " + message);
    return 1;
  }
}
