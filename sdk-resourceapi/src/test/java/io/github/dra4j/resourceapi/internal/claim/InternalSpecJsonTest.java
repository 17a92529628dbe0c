package io.github.dra4j.resourceapi.internal.claim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimSpec;
import io.fabric8.kubernetes.api.model.resource.v1.ResourceClaimTemplateSpec;
import org.junit.jupiter.api.Test;

/** A spec printed as the server prints its internal struct with json.Marshal. */
class InternalSpecJsonTest {

  @Test
  void everyFieldOfAClaimSpec() {
    ResourceClaimSpec spec = Fixtures.read("{devices:{requests:["
        + "{name:'a',firstAvailable:[{name:'s',deviceClassName:'c',allocationMode:'All',"
        + "selectors:[{cel:{expression:'x < 1'}}],tolerations:[{key:'k',operator:'Exists',"
        + "tolerationSeconds:5}],capacity:{requests:{'b.example.com/y':'1024Mi',"
        + "'a.example.com/x':'1000m'}}}]}],"
        + "constraints:[{requests:['a'],distinctAttribute:'d.example.com/n'}],"
        + "config:[{requests:['a/s'],opaque:{driver:'d',parameters:{z:1,a:'<b>'}}}]}}",
        ResourceClaimSpec.class);
    assertThat(InternalSpecJson.claimSpec(spec).text()).isEqualTo("{\"Devices\":{\"Requests\":[{"
        + "\"Name\":\"a\",\"Exactly\":null,\"FirstAvailable\":[{\"Name\":\"s\","
        + "\"DeviceClassName\":\"c\",\"Selectors\":[{\"CEL\":{\"Expression\":\"x \\u003c 1\"}}],"
        + "\"AllocationMode\":\"All\",\"Count\":0,\"Tolerations\":[{\"Key\":\"k\","
        + "\"Operator\":\"Exists\",\"Value\":\"\",\"Effect\":\"\",\"TolerationSeconds\":5}],"
        + "\"Capacity\":{\"Requests\":{\"a.example.com/x\":\"1\",\"b.example.com/y\":\"1Gi\"}}}]}],"
        + "\"Constraints\":[{\"Requests\":[\"a\"],\"MatchAttribute\":null,"
        + "\"DistinctAttribute\":\"d.example.com/n\"}],"
        + "\"Config\":[{\"Requests\":[\"a/s\"],\"Opaque\":{\"Driver\":\"d\","
        + "\"Parameters\":{\"z\":1,\"a\":\"\\u003cb\\u003e\"}}}]}}");
  }

  @Test
  void aTemplateSpecFlattensItsMetadata() {
    ResourceClaimTemplateSpec spec = Fixtures.read("{metadata:{labels:{b:'2',a:'1'}},"
        + "spec:{devices:{}}}", ResourceClaimTemplateSpec.class);
    assertThat(InternalSpecJson.templateSpec(spec).text()).isEqualTo(
        "{\"creationTimestamp\":null,\"labels\":{\"a\":\"1\",\"b\":\"2\"},\"Spec\":{\"Devices\":"
            + "{\"Requests\":null,\"Constraints\":null,\"Config\":null}}}");
  }
}
