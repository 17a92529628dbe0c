package io.github.dra4j.examples.gpu.command;

import io.github.dra4j.examples.gpu.demo.GpuDemo;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code gpu-driver demo}: the driver's whole story on a simulated node, printed step by step.
 * The simulated node is in {@code gpu-driver-demo.jar} only; the jar the image runs leaves it
 * out, and there this command says which jar to run instead.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
    description = "Runs the driver on a simulated node and prints each step (no cluster, no GPU).")
public final class DemoCommand implements Callable<Integer> {

  /** A class of the SDK's simulated node, present only where the demo can run. */
  static final String SIMULATED_NODE = "io.github.dra4j.testing.node.SimulatedNode";

  @Spec
  private CommandSpec spec;

  /** Creates the command; picocli fills in its spec. */
  public DemoCommand() {}

  @Override
  public Integer call() {
    try {
      Class.forName(SIMULATED_NODE, false, DemoCommand.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      spec.commandLine().getErr().println("gpu-driver demo: this is the driver's jar, which"
          + " leaves out the simulated node the demo runs on; run java -jar gpu-driver-demo.jar"
          + " demo");
      return 2;
    }
    return new GpuDemo(System.out).run();
  }
}
