package io.github.dra4j.cdi.spec;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * Intel RDT settings (spec 0.7.0; {@code schemata} and {@code enableMonitoring} need 1.1.0). OCI:
 * replaces {@code linux.intelRdt} as a whole. The 0.7.0 fields {@code enableCMT} and {@code
 * enableMBM} were removed in 1.1.0 and are refused when read.
 *
 * @param closID the class of service; empty if not given
 * @param l3CacheSchema the L3 cache schema; empty if not given
 * @param memBwSchema the memory bandwidth schema; empty if not given
 * @param schemata schemata lines; null when absent. Present, even empty, needs spec 1.1.0
 * @param enableMonitoring whether to enable monitoring; true needs spec 1.1.0
 */
@JsonPropertyOrder({"closID", "l3CacheSchema", "memBwSchema", "schemata", "enableMonitoring"})
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public record IntelRdt(
    @JsonProperty("closID") String closID,
    String l3CacheSchema,
    String memBwSchema,
    @JsonInclude(JsonInclude.Include.NON_NULL) List<String> schemata,
    @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean enableMonitoring) {

  /**
   * Copies {@code schemata}, keeping null (absent) apart from empty.
   *
   * @param closID the class of service
   * @param l3CacheSchema the L3 cache schema
   * @param memBwSchema the memory bandwidth schema
   * @param schemata schemata lines
   * @param enableMonitoring whether to enable monitoring
   */
  public IntelRdt {
    closID = Copies.text(closID);
    l3CacheSchema = Copies.text(l3CacheSchema);
    memBwSchema = Copies.text(memBwSchema);
    schemata = Copies.nullableList("intelRdt schemata", schemata);
  }

  /**
   * Creates settings that only set the class of service.
   *
   * @param closID the class of service
   * @return the settings (needs spec 0.7.0)
   * @throws IllegalArgumentException naming the class of service if it is not valid
   */
  public static IntelRdt ofClosId(String closID) {
    return EditChecks.intelRdt(new IntelRdt(closID, "", "", null, false));
  }
}
