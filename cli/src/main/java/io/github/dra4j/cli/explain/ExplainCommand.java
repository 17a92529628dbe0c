package io.github.dra4j.cli.explain;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplate;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.github.dra4j.structured.StructuredAllocator;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code dra4j explain claim|pod|template NAME}: why a claim is not allocated or not prepared,
 * read from a cluster. Also a kubectl plugin ({@code kubectl dra4j explain claim NAME -n NS}, with
 * the {@code kubectl-dra4j} launcher on the {@code PATH}). Exit status 0 when the explanation was
 * printed (whatever it says), 1 when the target does not exist or the cluster cannot be read (one
 * line on standard error names it), 2 for bad usage.
 */
@Command(name = "explain", mixinStandardHelpOptions = true, description = "Explain why a ResourceClaim (or a pod's claims, or a claim template) is not"
    + " allocated or not prepared: per request every device considered and why it was"
    + " rejected, or the allocation it would get; for an allocated claim its reservation,"
    + " the driver's ResourceSlices on the node and the claim's device status; the pods'"
    + " scheduling and prepare failures (Events); nodes with the same answer share a"
    + " section.", subcommands = {ExplainCommand.ClaimTarget.class, ExplainCommand.PodTarget.class,
        ExplainCommand.TemplateTarget.class}, exitCodeListHeading = "%nExit status:%n", exitCodeList = {
            "0:the explanation was printed",
            "1:the target or a node does not exist, or the cluster cannot be read",
            "2:bad usage"})
public final class ExplainCommand implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  /** For picocli. */
  public ExplainCommand() {}

  /**
   * Without a target: the usage, as a usage error.
   *
   * @return 2
   */
  @Override
  public Integer call() {
    spec.commandLine().getErr()
        .println("dra4j explain: say what to explain: claim, pod or template");
    spec.commandLine().usage(spec.commandLine().getErr());
    return 2;
  }

  /** Output formats. */
  enum Format {
    text, json
  }

  /** The options every target takes. */
  static final class Options {
    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "kubeconfig to use; - reads standard input (default: $KUBECONFIG or"
        + " ~/.kube/config, as kubectl)")
    String kubeconfig;

    @Option(names = {"-n",
        "--namespace"}, paramLabel = "NS", description = "namespace (default: the kubeconfig context's, else default)")
    String namespace;

    @Option(names = "--node", paramLabel = "NODE", description = "try pending claims on this node only (default: the pod's node, else every"
        + " node)")
    String node;

    @Option(names = {"-o",
        "--output"}, paramLabel = "FORMAT", description = "text (default) or json (stable shape, see docs/explain.md)")
    Format output = Format.text;
  }

  /** What a target does with a client and the state read. */
  @FunctionalInterface
  interface Explanation {
    Report explain(KubernetesClient client, String namespace, TargetExplainer explainer)
        throws TargetExplainer.NotFound;
  }

  /**
   * Connects, reads the cluster, explains and prints; one line on standard error on failure.
   */
  static int run(CommandSpec spec, Options options, InputStream in, Explanation explanation) {
    Config config;
    try {
      config = config(options, in);
    } catch (NoSuchFileException e) {
      return fail(spec, "--kubeconfig: no such file: " + e.getFile());
    } catch (IOException | RuntimeException e) {
      return fail(spec, "--kubeconfig: cannot read " + options.kubeconfig + ": " + e.getMessage());
    }
    String namespace = options.namespace != null ? options.namespace
        : config.getNamespace() != null ? config.getNamespace() : "default";
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
      ClusterState state = ClusterState.read(client, namespace);
      EventReader events = new EventReader(client, Clock.systemUTC());
      TargetExplainer explainer = new TargetExplainer(state, options.node,
          StructuredAllocator.create(), name -> client.resources(ResourceClaimTemplate.class)
              .inNamespace(namespace).withName(name).get(),
          events::read);
      Report report = explanation.explain(client, namespace, explainer);
      spec.commandLine().getOut().print(options.output == Format.json
          ? JsonRenderer.render(report) : TextRenderer.render(report));
      spec.commandLine().getOut().flush();
      return 0;
    } catch (TargetExplainer.NotFound e) {
      return fail(spec, e.getMessage());
    } catch (TargetExplainer.NotFoundUnchecked e) {
      return fail(spec, e.getMessage());
    } catch (KubernetesClientException e) {
      return fail(spec, "cannot read the cluster at " + config.getMasterUrl() + ": "
          + rootCause(e));
    }
  }

  private static Config config(Options options, InputStream in) throws IOException {
    Config config;
    if (options.kubeconfig == null) {
      config = Config.autoConfigure(null);
    } else {
      String contents = options.kubeconfig.equals("-")
          ? new String(in.readAllBytes(), StandardCharsets.UTF_8)
          : Files.readString(Path.of(options.kubeconfig));
      config = Config.fromKubeconfig(contents);
    }
    // One clear failure rather than minutes of retries against an unreachable server.
    config.setRequestRetryBackoffLimit(0);
    config.setConnectionTimeout(10_000);
    config.setRequestTimeout(30_000);
    return config;
  }

  private static String rootCause(Throwable e) {
    Throwable root = e;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String message = root == e ? e.getMessage() : root.getClass().getSimpleName() + ": "
        + root.getMessage();
    return message.lines().findFirst().orElse(message);
  }

  private static int fail(CommandSpec spec, String message) {
    spec.commandLine().getErr().println("dra4j explain: " + message);
    return 1;
  }

  /** {@code explain claim NAME}. */
  @Command(name = "claim", mixinStandardHelpOptions = true, description = "Explain a ResourceClaim.")
  static final class ClaimTarget implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    Options options;
    @Parameters(index = "0", paramLabel = "NAME", description = "the claim's name")
    String name;

    @Override
    public Integer call() {
      return run(spec, options, System.in, (client, ns, explainer) -> explainer.claim(ns, name));
    }
  }

  /** {@code explain pod NAME}. */
  @Command(name = "pod", mixinStandardHelpOptions = true, description = "Explain every ResourceClaim of a pod, also those made from templates.")
  static final class PodTarget implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    Options options;
    @Parameters(index = "0", paramLabel = "NAME", description = "the pod's name")
    String name;

    @Override
    public Integer call() {
      return run(spec, options, System.in, (client, ns, explainer) -> {
        Pod pod = client.pods().inNamespace(ns).withName(name).get();
        if (pod == null) {
          throw new TargetExplainer.NotFound("pod " + name + " not found in namespace " + ns);
        }
        return explainer.pod(pod);
      });
    }
  }

  /** {@code explain template NAME}. */
  @Command(name = "template", mixinStandardHelpOptions = true, description = "Explain the claim a ResourceClaimTemplate gives a pod.")
  static final class TemplateTarget implements Callable<Integer> {
    @Spec
    CommandSpec spec;
    @Mixin
    Options options;
    @Parameters(index = "0", paramLabel = "NAME", description = "the template's name")
    String name;

    @Override
    public Integer call() {
      return run(spec, options, System.in, (client, ns, explainer) -> {
        ResourceClaimTemplate template = client.resources(ResourceClaimTemplate.class)
            .inNamespace(ns).withName(name).get();
        if (template == null) {
          throw new TargetExplainer.NotFound(
              "resourceclaimtemplate " + name + " not found in namespace " + ns);
        }
        return explainer.template(template);
      });
    }
  }
}
