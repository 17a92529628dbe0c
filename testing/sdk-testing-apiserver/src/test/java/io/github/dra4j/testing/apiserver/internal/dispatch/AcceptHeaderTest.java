package io.github.dra4j.testing.apiserver.internal.dispatch;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AcceptHeaderTest {

  @ParameterizedTest
  @ValueSource(strings = {
      "",
      "application/json",
      "Application/JSON",
      "*/*",
      "application/*",
      "application/json, */*",
      "application/vnd.kubernetes.protobuf, application/json",
      "application/vnd.kubernetes.protobuf;stream=watch, application/json;stream=watch",
      "application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
      "application/json; charset=utf-8",
      "application/json;q=0.5"})
  void allowsJson(String accept) {
    assertThat(AcceptHeader.allowsJson(accept)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {
      "application/vnd.kubernetes.protobuf",
      "application/yaml",
      "text/html",
      "application/json;as=Table;v=v1;g=meta.k8s.io",
      "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList",
      "application/json;q=0",
      "application/json;q=0.0, application/vnd.kubernetes.protobuf"})
  void rulesJsonOut(String accept) {
    assertThat(AcceptHeader.allowsJson(accept)).isFalse();
  }

  @Test
  void absentHeaderAllowsJson() {
    assertThat(AcceptHeader.allowsJson(null)).isTrue();
  }
}
