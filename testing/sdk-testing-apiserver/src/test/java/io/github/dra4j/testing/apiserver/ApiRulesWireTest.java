package io.github.dra4j.testing.apiserver;

import static io.github.dra4j.testing.apiserver.RawHttp.assertStatus;
import static io.github.dra4j.testing.apiserver.RawHttp.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/**
 * The API rules on the wire, as client-go reads them: a refused write is a {@code Status} whose
 * fields come in the order kube-apiserver writes them, and warnings are {@code Warning} headers
 * in kube-apiserver's form.
 */
class ApiRulesWireTest {

  private static final String SLICES = "/apis/resource.k8s.io/v1/resourceslices";
  private static final String CLAIMS = "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims";
  private static final String SLICE = """
      {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"%s"},
       "spec":{"driver":"%s","nodeName":"node-1",
        "pool":{"name":"node-1","generation":1,"resourceSliceCount":1},
        "devices":[{"name":"%s"%s}]}}""";

  private InMemoryApiServer server;
  private RawHttp http;

  @BeforeEach
  void start() {
    server = InMemoryApiServer.builder().build().start();
    http = new RawHttp(server);
  }

  @AfterEach
  void stop() {
    server.close();
  }

  private HttpResponse<String> createSlice(String name, String driver, String device,
      String extra) {
    return http.send("POST", SLICES, "application/json",
        SLICE.formatted(name, driver, device, extra));
  }

  @Test
  void aRefusedWriteIsAStatusWithItsFieldsInTheServersOrder() {
    HttpResponse<String> refused = createSlice("s", "", "gpu-0", "");

    assertStatus(refused, 422, "Invalid");
    assertThat(refused.body()).isEqualTo("{\"kind\":\"Status\",\"apiVersion\":\"v1\","
        + "\"metadata\":{},\"status\":\"Failure\",\"message\":\"ResourceSlice.resource.k8s.io"
        + " \\\"s\\\" is invalid: spec.driver: Required value\",\"reason\":\"Invalid\","
        + "\"details\":{\"name\":\"s\",\"group\":\"resource.k8s.io\",\"kind\":\"ResourceSlice\","
        + "\"causes\":[{\"reason\":\"FieldValueRequired\",\"message\":\"Required value\","
        + "\"field\":\"spec.driver\"}]},\"code\":422}");
  }

  @Test
  void aRefusedStatusUpdateNamesTheConditionField() {
    http.send("POST", CLAIMS, "application/json", """
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},
         "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]}}}""");
    String allocation = """
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},
         "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]}},
         "status":{"allocation":{"devices":{"results":[{"request":"gpu",
           "driver":"gpu.example.com","pool":"node-1","device":"gpu-0"}]}}%s}}""";
    assertThat(http.send("PUT", CLAIMS + "/c/status", "application/json",
        allocation.formatted("")).statusCode()).isEqualTo(200);

    HttpResponse<String> refused = http.send("PUT", CLAIMS + "/c/status", "application/json",
        allocation.formatted(",\"devices\":[{\"driver\":\"gpu.example.com\",\"pool\":\"node-1\","
            + "\"device\":\"gpu-0\",\"conditions\":[{\"type\":\"Ready\",\"status\":\"True\","
            + "\"lastTransitionTime\":\"2026-01-02T03:04:05Z\",\"message\":\"\"}]}]"));

    JsonNode status = assertStatus(refused, 422, "Invalid");
    assertThat(status.path("message").asString()).isEqualTo("ResourceClaim.resource.k8s.io"
        + " \"c\" is invalid: status.devices[0].conditions[0].reason: Required value: must be set");
    assertThat(status.path("details").propertyNames())
        .containsExactly("name", "group", "kind", "causes");
    JsonNode cause = status.at("/details/causes/0");
    assertThat(cause.propertyNames()).containsExactly("reason", "message", "field");
    assertThat(cause.path("field").asString())
        .isEqualTo("status.devices[0].conditions[0].reason");
  }

  @Test
  void warningsAreHeadersInKubeApiserversForm() {
    HttpResponse<String> created = createSlice("s", "GPU.example.com", "gpu-0", ",\"x\":1");

    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(created.headers().allValues("Warning")).containsExactly(
        "299 - \"unknown field \\\"spec.devices[0].x\\\"\"",
        "299 - \"spec.driver: driver names should be lowercase; \\\"GPU.example.com\\\" contains"
            + " uppercase characters\"");
    assertThat(json(created).at("/spec/devices/0").has("x")).isFalse();

    HttpResponse<String> refused = createSlice("t", "GPU.example.com", "GPU-0", ",\"x\":1");
    assertStatus(refused, 422, "Invalid");
    assertThat(refused.headers().allValues("Warning"))
        .as("the warnings of reading the body come with the refusal, the rules' do not")
        .containsExactly("299 - \"unknown field \\\"spec.devices[0].x\\\"\"");
  }

  @Test
  void unknownFieldsAreNamedWhereAPatchPutsThem() {
    createSlice("s", "gpu.example.com", "gpu-0", "");
    String addField = "[{\"op\":\"add\",\"path\":\"/spec/devices/0/x\",\"value\":1}]";

    HttpResponse<String> warned = http.send("PATCH", SLICES + "/s",
        "application/json-patch+json", addField);
    assertThat(warned.statusCode()).isEqualTo(200);
    assertThat(warned.headers().allValues("Warning"))
        .containsExactly("299 - \"unknown field \\\"spec.devices[0].x\\\"\"");
    assertThat(json(warned).at("/spec/devices/0").has("x")).isFalse();

    JsonNode strict = assertStatus(http.send("PATCH", SLICES + "/s?fieldValidation=Strict",
        "application/json-patch+json", addField), 400, "BadRequest");
    assertThat(strict.path("message").asString()).isEqualTo("ResourceSlice in version \"v1\""
        + " cannot be handled as a ResourceSlice: strict decoding error: unknown field"
        + " \"spec.devices[0].x\"");
  }

  @Test
  void aStatusIsServedOnlyForKindsThatHaveOne() {
    createSlice("s", "gpu.example.com", "gpu-0", "");
    String slice = SLICE.formatted("s", "gpu.example.com", "gpu-0", "");

    assertStatus(http.get(SLICES + "/s/status", null), 404, "NotFound");
    assertStatus(http.send("PUT", SLICES + "/s/status", "application/json", slice), 404,
        "NotFound");
    assertStatus(http.send("PATCH", SLICES + "/s/status", "application/merge-patch+json", "{}"),
        404, "NotFound");
    assertStatus(http.get("/apis/resource.k8s.io/v1/deviceclasses/c/status", null), 404,
        "NotFound");
    http.send("POST", CLAIMS, "application/json", """
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim","metadata":{"name":"c"},
         "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu"}}]}}}""");
    assertThat(http.get(CLAIMS + "/c/status", null).statusCode()).isEqualTo(200);
  }

  @Test
  void anUpdateThatChangesNothingKeepsTheResourceVersion() {
    String version = json(createSlice("s", "gpu.example.com", "gpu-0", ""))
        .at("/metadata/resourceVersion").asString();
    String slice = SLICE.formatted("s", "gpu.example.com", "gpu-0", "");

    for (int i = 0; i < 2; i++) {
      HttpResponse<String> replaced = http.send("PUT", SLICES + "/s", "application/json", slice);
      assertThat(replaced.statusCode()).isEqualTo(200);
      assertThat(json(replaced).at("/metadata/resourceVersion").asString()).isEqualTo(version);
      assertThat(json(replaced).path("metadata").has("namespace"))
          .as("a cluster-scoped object has no namespace, not a null one").isFalse();
    }
  }
}
