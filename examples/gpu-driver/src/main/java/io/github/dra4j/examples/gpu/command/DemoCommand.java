package io.github.dra4j.examples.gpu.command;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code gpu-driver demo}: the driver's whole story on a simulated node, printed step by step.
 * The demo and the simulated node it runs on are in {@code gpu-driver-demo.jar} only (module
 * {@code examples/gpu-driver-demo}, which adds them to this driver); the jar the image runs
 * leaves them out, and there this command says which jar to run instead.
 */
@Command(name = "demo", mixinStandardHelpOptions = true, description = "Runs the driver on a simulated node and prints each step (no cluster, no GPU).")
public final class DemoCommand implements Callable<Integer> {

  /**
   * The demo's class, present only where the demo can run: its constructor takes the stream to
   * print to, and {@code run()} returns the exit status.
   */
  static final String DEMO = "io.github.dra4j.examples.gpu.demo.GpuDemo";

  @Spec
  private CommandSpec spec;

  /** Creates the command; picocli fills in its spec. */
  public DemoCommand() {}

  @Override
  public Integer call() throws ReflectiveOperationException {
    Class<?> demo;
    try {
      demo = Class.forName(DEMO, true, DemoCommand.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      spec.commandLine().getErr().println("gpu-driver demo: this is the driver's jar, which"
          + " leaves out the simulated node the demo runs on; run java -jar gpu-driver-demo.jar"
          + " demo");
      return 2;
    }
    Object story = demo.getConstructor(PrintStream.class).newInstance(System.out);
    return (Integer) demo.getMethod("run").invoke(story);
  }
}
