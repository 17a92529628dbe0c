package io.github.dra4j.testing.apiserver;

import static io.github.dra4j.testing.apiserver.RawHttp.assertStatus;
import static io.github.dra4j.testing.apiserver.RawHttp.json;
import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

/** The HTTP wire protocol as a client other than fabric8 (client-go, kubectl, curl) sees it. */
class WireProtocolTest {

  private static final String CLASSES = "/apis/resource.k8s.io/v1/deviceclasses";
  private static final String CLASS = """
      {"apiVersion":"resource.k8s.io/v1","kind":"DeviceClass","metadata":{"name":"%s"},
       "spec":{"selectors":[{"cel":{"expression":"true"}}]%s}}""";

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

  private HttpResponse<String> createClass(String name, String extraSpec, String query) {
    return http.send("POST", CLASSES + query, "application/json",
        CLASS.formatted(name, extraSpec));
  }

  @Test
  void everyResponseCarriesItsContentType() {
    assertThat(createClass("a", "", "").statusCode()).isEqualTo(201);
    List<HttpResponse<String>> responses = new ArrayList<>();
    for (String path : List.of("/", "/version", "/api", "/api/v1", "/apis",
        "/apis/resource.k8s.io", "/apis/resource.k8s.io/v1", "/openapi/v3",
        "/openapi/v3/apis/resource.k8s.io/v1", CLASSES, CLASSES + "/a", CLASSES + "/missing",
        "/apis/resource.k8s.io/v1/namespaces/default/resourceclaims", "/no/such/path",
        "/openapi/v2")) {
      responses.add(http.get(path, null));
    }
    responses.add(http.send("PATCH", CLASSES + "/a", "application/merge-patch+json",
        "{\"metadata\":{\"labels\":{\"x\":\"y\"}}}"));
    responses.add(http.send("PUT", CLASSES + "/a", "application/json", CLASS.formatted("a", "")));
    responses.add(http.send("DELETE", CLASSES + "/a", null, null));
    responses.add(http.send("DELETE", CLASSES, null, null));
    responses.add(http.send("OPTIONS", CLASSES, null, null));

    for (HttpResponse<String> response : responses) {
      assertThat(response.headers().firstValue("Content-Type"))
          .as("%s %s -> %d", response.request().method(), response.request().uri(),
              response.statusCode())
          .hasValue("application/json");
      json(response); // every body is JSON
    }
    HttpResponse<String> health = http.get("/healthz", null);
    assertThat(health.headers().firstValue("Content-Type")).hasValue("text/plain; charset=utf-8");
    assertThat(health.body()).isEqualTo("ok");
  }

  @Test
  void protobufFirstClientsGetJsonAndJsonlessOnesGet406() {
    createClass("a", "", "");

    HttpResponse<String> object = http.get(CLASSES + "/a", RawHttp.PROTOBUF_FIRST);
    assertThat(object.statusCode()).isEqualTo(200);
    assertThat(object.headers().firstValue("Content-Type")).hasValue("application/json");
    assertThat(json(object).at("/metadata/name").asString()).isEqualTo("a");

    HttpResponse<String> list = http.get(CLASSES,
        "application/json;as=Table;v=v1;g=meta.k8s.io,application/json");
    assertThat(json(list).path("kind").asString()).isEqualTo("DeviceClassList");
    assertThat(http.get("/apis", "application/json;g=apidiscovery.k8s.io;v=v2;"
        + "as=APIGroupDiscoveryList,application/json").statusCode()).isEqualTo(200);
    assertThat(http.get(CLASSES, "*/*").statusCode()).isEqualTo(200);
    assertThat(http.get(CLASSES, "application/json; charset=utf-8").statusCode()).isEqualTo(200);

    JsonNode status = assertStatus(
        http.get(CLASSES + "/a", "application/vnd.kubernetes.protobuf"), 406, "NotAcceptable");
    assertThat(status.path("message").asString()).contains("application/json");
    assertStatus(http.get(CLASSES, "application/yaml"), 406, "NotAcceptable");
    assertStatus(http.get("/api", "application/json;q=0, application/vnd.kubernetes.protobuf"),
        406, "NotAcceptable");
  }

  @Test
  void errorsAreStatusObjects() {
    createClass("a", "", "");

    assertThat(assertStatus(http.get(CLASSES + "/missing", null), 404, "NotFound")
        .path("message").asString())
        .isEqualTo("deviceclasses.resource.k8s.io \"missing\" not found");
    assertStatus(http.get("/no/such/path", null), 404, "NotFound");
    assertThat(assertStatus(createClass("a", "", ""), 409, "AlreadyExists").path("message")
        .asString()).isEqualTo("deviceclasses.resource.k8s.io \"a\" already exists");
    String stale = CLASS.formatted("a", "").replace("\"name\":\"a\"",
        "\"name\":\"a\",\"resourceVersion\":\"999\"");
    assertStatus(http.send("PUT", CLASSES + "/a", "application/json", stale), 409, "Conflict");
    assertStatus(
        http.get("/apis/resource.k8s.io/v1/resourceslices?fieldSelector=spec.pool.name%3Dp",
            null),
        400, "BadRequest");
    assertStatus(http.send("POST", CLASSES, "application/json", "{not json"), 400, "BadRequest");
    assertStatus(http.send("POST", CLASSES, "application/json", "{\"metadata\":{}}"), 422,
        "Invalid");
    assertStatus(http.send("OPTIONS", CLASSES, null, null), 405, "MethodNotAllowed");
    assertThat(assertStatus(http.send("PATCH", CLASSES + "/a", null, "{}"), 415,
        "UnsupportedMediaType").path("message").asString())
        .contains("application/merge-patch+json");
    assertStatus(http.send("PATCH", CLASSES + "/a", "application/apply-patch+yaml", "{}"), 415,
        "UnsupportedMediaType");
    JsonNode badDryRun = assertStatus(createClass("b", "", "?dryRun=Yes"), 422, "Invalid");
    assertThat(badDryRun.path("message").asString()).isEqualTo("CreateOptions.meta.k8s.io \"\" is"
        + " invalid: dryRun: Unsupported value: [\"Yes\"]: supported values: \"All\"");
    assertThat(badDryRun.at("/details/causes/0/field").asString()).isEqualTo("dryRun");
    assertThat(badDryRun.at("/details/causes/0/reason").asString())
        .isEqualTo("FieldValueNotSupported");
    server.failNext(ApiVerb.GET, "deviceclasses", 503, 1);
    assertStatus(http.get(CLASSES + "/a", null), 503, "ServiceUnavailable");
  }

  @Test
  void fieldValidationWarnsByDefaultFailsWhenStrictAndIsIgnoredOnRequest() {
    HttpResponse<String> warned = createClass("warned", ",\"selectorz\":[]", "");
    assertThat(warned.statusCode()).isEqualTo(201);
    assertThat(warned.headers().allValues("Warning"))
        .containsExactly("299 - \"unknown field \\\"spec.selectorz\\\"\"");

    JsonNode strict = assertStatus(createClass("strict", ",\"selectorz\":[],\"bad\":1",
        "?fieldValidation=Strict"), 400, "BadRequest");
    assertThat(strict.path("message").asString()).isEqualTo(
        "DeviceClass in version \"v1\" cannot be handled as a DeviceClass: strict decoding error:"
            + " unknown field \"spec.selectorz\", unknown field \"spec.bad\"");
    assertThat(http.get(CLASSES + "/strict", null).statusCode()).isEqualTo(404);

    HttpResponse<String> ignored = createClass("ignored", ",\"selectorz\":[]",
        "?fieldValidation=Ignore");
    assertThat(ignored.statusCode()).isEqualTo(201);
    assertThat(ignored.headers().allValues("Warning")).isEmpty();

    HttpResponse<String> clean = createClass("clean", "", "?fieldValidation=Strict");
    assertThat(clean.statusCode()).isEqualTo(201);
    assertThat(clean.headers().allValues("Warning")).isEmpty();

    JsonNode nested = assertStatus(http.send("PATCH", CLASSES + "/clean?fieldValidation=Strict",
        "application/strategic-merge-patch+json",
        "{\"spec\":{\"selectors\":[{\"cel\":{\"expresion\":\"false\"}}]}}"), 400, "BadRequest");
    assertThat(nested.path("message").asString())
        .endsWith("unknown field \"spec.selectors[0].cel.expresion\"");

    assertThat(assertStatus(createClass("x", "", "?fieldValidation=Loose"), 422, "Invalid")
        .path("message").asString()).isEqualTo("CreateOptions.meta.k8s.io \"\" is invalid:"
            + " fieldValidation: Unsupported value: \"Loose\": supported values: \"\", \"Ignore\","
            + " \"Strict\", \"Warn\"");
    assertThat(assertStatus(http.send("PATCH", CLASSES + "/clean?fieldValidation=Loose",
        "application/merge-patch+json", "{}"), 422, "Invalid").path("message").asString())
        .startsWith("PatchOptions.meta.k8s.io \"\" is invalid: fieldValidation:");

    assertThat(json(http.get(CLASSES + "/ignored", null)).path("spec").has("selectorz"))
        .as("unknown fields are dropped from what is stored, whatever the directive").isFalse();
    assertThat(json(http.get(CLASSES + "/warned", null)).path("spec").has("selectorz")).isFalse();
  }

  @Test
  void dryRunChecksAndAnswersWithoutStoring() {
    HttpResponse<String> created = createClass("dry", "", "?dryRun=All");
    assertThat(created.statusCode()).isEqualTo(201);
    assertThat(json(created).at("/metadata/name").asString()).isEqualTo("dry");
    assertThat(json(created).at("/metadata/uid").asString()).isNotEmpty();
    assertThat(json(created).at("/metadata").has("resourceVersion")).isFalse();
    assertStatus(http.get(CLASSES + "/dry", null), 404, "NotFound");

    createClass("a", "", "");
    String stored = json(http.get(CLASSES + "/a", null)).at("/metadata/resourceVersion").asString();
    HttpResponse<String> patched = http.send("PATCH", CLASSES + "/a?dryRun=All",
        "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"k\":\"v\"}}}");
    assertThat(patched.statusCode()).isEqualTo(200);
    assertThat(json(patched).at("/metadata/labels/k").asString()).isEqualTo("v");
    HttpResponse<String> replaced = http.send("PUT", CLASSES + "/a?dryRun=All",
        "application/json", CLASS.formatted("a", ",\"config\":[]"));
    assertThat(replaced.statusCode()).isEqualTo(200);
    assertThat(http.send("DELETE", CLASSES + "/a?dryRun=All", null, null).statusCode())
        .isEqualTo(200);
    JsonNode after = json(http.get(CLASSES + "/a", null));
    assertThat(after.at("/metadata/resourceVersion").asString()).isEqualTo(stored);
    assertThat(after.at("/metadata").has("labels")).isFalse();
    assertThat(server.countWrites("deviceclasses")).as("only the one real create").isEqualTo(1);
  }

  @Test
  void patchesAreAnsweredLikeARealServer() {
    createClass("a", "", "");

    HttpResponse<String> strategic = http.send("PATCH", CLASSES + "/a",
        "application/strategic-merge-patch+json", "{\"metadata\":{\"labels\":{\"k\":\"v\"}}}");
    assertThat(strategic.statusCode()).isEqualTo(200);
    assertThat(json(strategic).at("/metadata/labels/k").asString()).isEqualTo("v");
    assertThat(json(strategic).at("/spec/selectors/0/cel/expression").asString())
        .isEqualTo("true");

    HttpResponse<String> jsonPatch = http.send("PATCH", CLASSES + "/a",
        "application/json-patch+json",
        "[{\"op\":\"replace\",\"path\":\"/metadata/labels/k\",\"value\":\"w\"}]");
    assertThat(jsonPatch.statusCode()).isEqualTo(200);
    assertThat(json(jsonPatch).at("/metadata/labels/k").asString()).isEqualTo("w");

    HttpResponse<String> merge = http.send("PATCH", CLASSES + "/a",
        "application/merge-patch+json", "{\"metadata\":{\"labels\":{\"k\":null}},"
            + "\"spec\":{\"selectors\":[{\"cel\":{\"expression\":\"false\"}}]}}");
    assertThat(merge.statusCode()).isEqualTo(200);
    assertThat(json(merge).at("/metadata/labels").has("k")).isFalse();
    assertThat(json(merge).at("/spec/selectors").size())
        .as("a merge patch replaces an array").isEqualTo(1);
    assertThat(json(merge).at("/spec/selectors/0/cel/expression").asString()).isEqualTo("false");
    assertStatus(http.send("PATCH", CLASSES + "/missing", "application/merge-patch+json", "{}"),
        404, "NotFound");

    JsonNode directive = assertStatus(http.send("PATCH", CLASSES + "/a",
        "application/strategic-merge-patch+json",
        "{\"spec\":{\"selectors\":[{\"$patch\":\"delete\"}]}}"), 400, "BadRequest");
    assertThat(directive.path("message").asString())
        .contains("\"$patch\"", "spec.selectors[0].$patch");
  }

  @Test
  void openApiDocumentsOfferFieldValidationForEveryKind() {
    server.enableGroupVersion("resource.k8s.io/v1beta1");
    server.enableGroupVersion("resource.k8s.io/v1beta2");
    JsonNode index = json(http.get("/openapi/v3", "application/json, */*"));
    JsonNode paths = index.path("paths");
    assertThat(paths.propertyNames()).contains("api/v1", "apis/resource.k8s.io/v1",
        "apis/resource.k8s.io/v1beta2", "apis/resource.k8s.io/v1beta1");
    String url = paths.path("apis/resource.k8s.io/v1").path("serverRelativeURL").asString();
    assertThat(url).startsWith("/openapi/v3/apis/resource.k8s.io/v1?hash=");

    JsonNode document = json(http.get(url, "application/json"));
    assertThat(document.path("openapi").asString()).startsWith("3.");
    for (String path : List.of(
        "/apis/resource.k8s.io/v1/deviceclasses/{name}",
        "/apis/resource.k8s.io/v1/resourceslices/{name}",
        "/apis/resource.k8s.io/v1/namespaces/{namespace}/resourceclaims/{name}",
        "/apis/resource.k8s.io/v1/namespaces/{namespace}/resourceclaims/{name}/status")) {
      JsonNode patch = document.path("paths").path(path).path("patch");
      assertThat(patch.path("x-kubernetes-group-version-kind").path("group").asString())
          .as(path).isEqualTo("resource.k8s.io");
      assertThat(patch.path("parameters").findValuesAsString("name"))
          .as(path).contains("fieldValidation", "dryRun");
    }
    JsonNode claimSchema = document.at("/components/schemas/io.k8s.api.resource.v1.ResourceClaim");
    assertThat(claimSchema.path("properties").propertyNames())
        .contains("apiVersion", "kind", "metadata", "spec", "status");
    assertThat(claimSchema.at("/x-kubernetes-group-version-kind/0/kind").asString())
        .isEqualTo("ResourceClaim");
    assertThat(document.at("/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta"
        + "/properties/labels/additionalProperties/type").asString()).isEqualTo("string");

    JsonNode core = json(http.get("/openapi/v3/api/v1", null));
    assertThat(core.at("/paths/~1api~1v1~1namespaces~1{namespace}~1pods~1{name}/patch"
        + "/x-kubernetes-group-version-kind/kind").asString()).isEqualTo("Pod");

    server.disableGroupVersion("resource.k8s.io/v1beta1");
    assertThat(json(http.get("/openapi/v3", null)).path("paths").propertyNames())
        .doesNotContain("apis/resource.k8s.io/v1beta1").contains("apis/resource.k8s.io/v1");
    assertStatus(http.get("/openapi/v3/apis/resource.k8s.io/v1beta1", null), 404, "NotFound");
    assertStatus(http.get("/openapi/v3/apis/unknown.example.com/v1", null), 404, "NotFound");
  }
}
