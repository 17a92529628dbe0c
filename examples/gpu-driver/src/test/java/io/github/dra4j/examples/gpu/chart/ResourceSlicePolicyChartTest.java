package io.github.dra4j.examples.gpu.chart;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cel.bundle.Cel;
import dev.cel.bundle.CelFactory;
import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.types.SimpleType;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.MatchCondition;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.NamedRuleWithOperations;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicy;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingAdmissionPolicyBinding;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Validation;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.Variable;
import io.fabric8.kubernetes.api.model.apps.DaemonSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The ValidatingAdmissionPolicy that keeps each node's plugin to its own ResourceSlices. Its match
 * condition must name the DaemonSet's own service account (a policy naming another account
 * restricts nobody), which is checked by evaluating the CEL for the DaemonSet's account, with
 * default and overridden names. Its validations are evaluated with cel-java on the requests the
 * API server would send.
 */
class ResourceSlicePolicyChartTest {

  private static final String NODE_NAME_KEY = "authentication.kubernetes.io/node-name";
  private static final Cel CEL = CelFactory.legacyCelBuilder()
      .setOptions(CelOptions.current().build())
      .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
      .addVar("request", SimpleType.DYN)
      .addVar("object", SimpleType.DYN)
      .addVar("oldObject", SimpleType.DYN)
      .addVar("variables", SimpleType.DYN)
      .build();

  @Test
  void policyMatchesResourceSliceWritesAndIsBound() {
    Rendered rendered = Helm.require().template();

    ValidatingAdmissionPolicy policy = rendered.one(ValidatingAdmissionPolicy.class);
    assertThat(policy.getApiVersion()).isEqualTo("admissionregistration.k8s.io/v1");
    assertThat(policy.getSpec().getFailurePolicy()).isEqualTo("Fail");
    assertThat(policy.getSpec().getParamKind()).as("no parameters").isNull();
    List<NamedRuleWithOperations> rules = policy.getSpec().getMatchConstraints().getResourceRules();
    assertThat(rules).hasSize(1);
    NamedRuleWithOperations rule = rules.get(0);
    assertThat(rule.getApiGroups()).containsExactly("resource.k8s.io");
    assertThat(rule.getApiVersions()).containsExactlyInAnyOrder("v1", "v1beta1", "v1beta2");
    assertThat(rule.getOperations()).containsExactlyInAnyOrder("CREATE", "UPDATE", "DELETE");
    assertThat(rule.getResources()).containsExactly("resourceslices");
    assertThat(rule.getResourceNames()).as("every slice").isNullOrEmpty();

    ValidatingAdmissionPolicyBinding binding = rendered.one(ValidatingAdmissionPolicyBinding.class);
    assertThat(binding.getSpec().getPolicyName()).isEqualTo(policy.getMetadata().getName());
    assertThat(binding.getSpec().getValidationActions()).containsExactly("Deny");
    assertThat(binding.getSpec().getParamRef()).isNull();
    assertThat(binding.getSpec().getMatchResources()).as("binding narrows nothing").isNull();
  }

  @Test
  void policyAppliesToTheDaemonSetsAccountByDefault() throws Exception {
    assertPolicyAccountIsTheDaemonSets(Helm.require().template(),
        "system:serviceaccount:dra4j-system:gpu-dra4j-gpu-driver-kubelet-plugin");
  }

  @Test
  void policyFollowsARenamedAccount() throws Exception {
    assertPolicyAccountIsTheDaemonSets(
        Helm.require().template("--set", "kubeletPlugin.serviceAccount.name=gpu-plugin"),
        "system:serviceaccount:dra4j-system:gpu-plugin");
  }

  @Test
  void policyFollowsAnExistingAccountTheFullnameAndTheNamespace() throws Exception {
    assertPolicyAccountIsTheDaemonSets(
        Helm.require().templateIn("gpu-drivers", "--set", "fullnameOverride=acme"),
        "system:serviceaccount:gpu-drivers:acme-kubelet-plugin");
    assertPolicyAccountIsTheDaemonSets(
        Helm.require().templateIn("gpu-drivers",
            "--set", "kubeletPlugin.serviceAccount.create=false",
            "--set", "kubeletPlugin.serviceAccount.name=shared-plugin"),
        "system:serviceaccount:gpu-drivers:shared-plugin");
  }

  @Test
  void pluginMayWriteOnlyItsOwnNodesSlices() throws Exception {
    Rendered rendered = Helm.require().template();
    ValidatingAdmissionPolicy policy = rendered.one(ValidatingAdmissionPolicy.class);
    String plugin = "system:serviceaccount:" + Helm.NAMESPACE + ":"
        + rendered.one(DaemonSet.class).getSpec().getTemplate().getSpec().getServiceAccountName();

    for (String operation : List.of("CREATE", "UPDATE")) {
      assertThat(evaluate(policy, request(plugin, "node-a", operation), slice("node-a"), null))
          .as("%s of the own node's slice", operation).isEmpty();
      assertThat(evaluate(policy, request(plugin, "node-a", operation), slice("node-b"), null))
          .as("%s of another node's slice", operation)
          .hasValueSatisfying(message -> assertThat(message)
              .contains("node \"node-a\"", "not \"node-b\""));
      assertThat(evaluate(policy, request(plugin, "node-a", operation), slice(null), null))
          .as("%s of a slice of no node", operation).isPresent();
    }
    assertThat(evaluate(policy, request(plugin, "node-a", "DELETE"), null, slice("node-a")))
        .as("DELETE of the own node's slice (oldObject)").isEmpty();
    assertThat(evaluate(policy, request(plugin, "node-a", "DELETE"), null, slice("node-b")))
        .as("DELETE of another node's slice (oldObject)").isPresent();
    assertThat(evaluate(policy, request(plugin, null, "CREATE"), slice("node-a"), null))
        .as("a token without a node")
        .hasValueSatisfying(message -> assertThat(message).contains("names no node"));
    assertThat(evaluate(policy, request(plugin, "", "CREATE"), slice(""), null))
        .as("an empty node name in the token").isPresent();
    assertThat(evaluate(policy,
        request("system:serviceaccount:kube-system:resourceslice-controller", null, "CREATE"),
        slice("node-b"), null))
        .as("other requesters are not this policy's business").isEmpty();
  }

  @Test
  void policyCanBeTurnedOff() {
    Rendered rendered = Helm.require().template("--set", "resourceSlicePolicy.enabled=false");

    assertThat(rendered.all(ValidatingAdmissionPolicy.class)).isEmpty();
    assertThat(rendered.all(ValidatingAdmissionPolicyBinding.class)).isEmpty();
  }

  private static void assertPolicyAccountIsTheDaemonSets(Rendered rendered, String expected)
      throws Exception {
    DaemonSet daemonSet = rendered.one(DaemonSet.class);
    String account = "system:serviceaccount:" + daemonSet.getMetadata().getNamespace() + ":"
        + daemonSet.getSpec().getTemplate().getSpec().getServiceAccountName();
    assertThat(account).as("the DaemonSet's account").isEqualTo(expected);
    ValidatingAdmissionPolicy policy = rendered.one(ValidatingAdmissionPolicy.class);
    List<MatchCondition> conditions = policy.getSpec().getMatchConditions();
    assertThat(conditions).as("match conditions").hasSize(1);
    assertThat(conditions.get(0).getExpression()).as("the policy's account")
        .contains("'" + account + "'");
    assertThat(matches(policy, request(account, "node-a", "CREATE")))
        .as("the policy applies to the DaemonSet's account %s", account).isTrue();
    assertThat(matches(policy, request(account + "x", "node-a", "CREATE")))
        .as("the policy applies to no other account").isFalse();
    assertThat(matches(policy, request("system:node:node-a", "node-a", "CREATE")))
        .as("the policy does not apply to the kubelet").isFalse();
  }

  /** Whether every match condition holds. */
  private static boolean matches(ValidatingAdmissionPolicy policy, Map<String, Object> request)
      throws Exception {
    Map<String, Object> vars = new HashMap<>();
    vars.put("request", request);
    for (MatchCondition condition : policy.getSpec().getMatchConditions()) {
      if (!Boolean.TRUE.equals(eval(condition.getExpression(), vars))) {
        return false;
      }
    }
    return true;
  }

  /**
   * Runs the policy as the API server does: match conditions, variables, then validations.
   *
   * @return the denial's message, or empty if the request is allowed or not matched
   */
  private static Optional<String> evaluate(ValidatingAdmissionPolicy policy,
      Map<String, Object> request, Map<String, Object> object, Map<String, Object> oldObject)
      throws Exception {
    if (!matches(policy, request)) {
      return Optional.empty();
    }
    Map<String, Object> vars = new HashMap<>();
    vars.put("request", request);
    // The API server passes null for the side that does not exist (object on DELETE, oldObject
    // on CREATE); leaving it unbound makes any use of it an error, which the policy must avoid.
    if (object != null) {
      vars.put("object", object);
    }
    if (oldObject != null) {
      vars.put("oldObject", oldObject);
    }
    Map<String, Object> variables = new LinkedHashMap<>();
    vars.put("variables", variables);
    for (Variable variable : policy.getSpec().getVariables()) {
      Object value = eval(variable.getExpression(), vars);
      // Both of this policy's variables are node names; anything else (cel-java's stand-in for
      // an unbound variable, say) means the expression read a side the request does not have.
      assertThat(value).as("variable %s = %s", variable.getName(), variable.getExpression())
          .isInstanceOf(String.class);
      variables.put(variable.getName(), value);
    }
    for (Validation validation : policy.getSpec().getValidations()) {
      Object result = eval(validation.getExpression(), vars);
      assertThat(result).as("validation %s", validation.getExpression())
          .isInstanceOf(Boolean.class);
      if (!(Boolean) result) {
        String message = validation.getMessageExpression() != null
            ? (String) eval(validation.getMessageExpression(), vars)
            : validation.getMessage();
        assertThat(message).as("denial message of %s", validation.getExpression()).isNotBlank();
        return Optional.of(message);
      }
    }
    return Optional.empty();
  }

  private static Object eval(String expression, Map<String, Object> vars) throws Exception {
    var compiled = CEL.compile(expression);
    assertThat(compiled.hasError()).as("%s compiles: %s", expression,
        compiled.getErrorString()).isFalse();
    CelAbstractSyntaxTree ast = compiled.getAst();
    try {
      return CEL.createProgram(ast).eval(vars);
    } catch (CelEvaluationException e) {
      // With failurePolicy Fail the API server would deny, but for the wrong reason.
      throw new AssertionError("policy expression fails instead of deciding: " + expression
          + "\n  on " + vars.keySet() + ": " + e.getMessage(), e);
    }
  }

  /** An admission request's fields the policy reads. */
  private static Map<String, Object> request(String user, String node, String operation) {
    Map<String, Object> extra = new HashMap<>();
    if (node != null) {
      extra.put(NODE_NAME_KEY, List.of(node));
    }
    extra.put("authentication.kubernetes.io/pod-name", List.of("plugin-xyz"));
    return Map.of("operation", operation,
        "userInfo", Map.of("username", user, "extra", extra));
  }

  private static Map<String, Object> slice(String node) {
    Map<String, Object> spec = new HashMap<>();
    spec.put("driver", "gpu.example.com");
    if (node != null) {
      spec.put("nodeName", node);
    } else {
      spec.put("allNodes", true);
    }
    return Map.of("apiVersion", "resource.k8s.io/v1", "kind", "ResourceSlice", "spec", spec);
  }
}
