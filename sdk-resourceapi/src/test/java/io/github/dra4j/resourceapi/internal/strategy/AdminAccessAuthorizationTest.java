package io.github.dra4j.resourceapi.internal.strategy;

import static io.github.dra4j.resourceapi.ExpectedErrors.assertErrors;
import static io.github.dra4j.resourceapi.TestJson.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaim;
import io.github.dra4j.resourceapi.FieldError;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AdminAccessAuthorizationTest {

  private static final Map<String, String> ADMIN = Map
      .of(AdminAccessAuthorization.ADMIN_NAMESPACE_LABEL, "true");

  private static ResourceClaim claim(boolean admin, String results) {
    return read("{\"apiVersion\":\"resource.k8s.io/v1\",\"kind\":\"ResourceClaim\","
        + "\"metadata\":{\"name\":\"c\",\"namespace\":\"ns\"},\"spec\":{\"devices\":{"
        + "\"requests\":[{\"name\":\"a\",\"exactly\":{\"deviceClassName\":\"g\"}},"
        + "{\"name\":\"b\",\"exactly\":{\"deviceClassName\":\"g\",\"adminAccess\":" + admin
        + "}}]}},\"status\":{\"allocation\":{\"devices\":{\"results\":" + results + "}}}}",
        ResourceClaim.class);
  }

  private static String result(boolean admin) {
    return "{\"request\":\"b\",\"driver\":\"d.example.com\",\"pool\":\"p\",\"device\":\"d\","
        + "\"adminAccess\":" + admin + "}";
  }

  @Test
  void adminRequestNeedsTheLabel() {
    List<FieldError> errors = AdminAccessAuthorization.forRequests(
        claim(true, "[]").getSpec().getDevices().getRequests(), "ns", Map.of());
    assertErrors(errors, "Forbidden spec.devices.requests[1].exactly.adminAccess");
    assertThat(errors.get(0).toString()).isEqualTo("spec.devices.requests[1].exactly.adminAccess:"
        + " Forbidden: admin access to devices requires the"
        + " `resource.kubernetes.io/admin-access: true` label on the containing namespace");
  }

  @Test
  void labelledNamespaceOrNoAdminIsFine() {
    var requests = claim(true, "[]").getSpec().getDevices().getRequests();
    assertErrors(AdminAccessAuthorization.forRequests(requests, "ns", ADMIN));
    assertErrors(AdminAccessAuthorization.forRequests(
        claim(false, "[]").getSpec().getDevices().getRequests(), "ns", null));
  }

  @Test
  void missingNamespaceIsAnInternalError() {
    var requests = claim(true, "[]").getSpec().getDevices().getRequests();
    assertErrors(AdminAccessAuthorization.forRequests(requests, "ns", null),
        "Internal spec.devices.requests[1].exactly.adminAccess");
  }

  @Test
  void statusIsCheckedOnlyWhenAdminIsNewlyGranted() {
    var granted = claim(true, "[" + result(true) + "]").getStatus().getAllocation().getDevices()
        .getResults();
    assertErrors(AdminAccessAuthorization.forStatus(granted, List.of(), "ns", Map.of()),
        "Forbidden status.allocation.devices.results[0].adminAccess");
    assertErrors(AdminAccessAuthorization.forStatus(granted, granted, "ns", Map.of()));
    assertErrors(AdminAccessAuthorization.forStatus(granted, List.of(), "ns", ADMIN));
  }
}
