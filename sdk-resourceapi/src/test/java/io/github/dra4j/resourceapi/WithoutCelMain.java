package io.github.dra4j.resourceapi;

/**
 * Run by {@link WithoutCelTest} in a JVM whose class path lacks dra4j-cel: creates a claim with a
 * device selector and a slice through the rules and prints each outcome on one line.
 */
final class WithoutCelMain {

  private WithoutCelMain() {}

  public static void main(String[] args) {
    ResourceApiRules rules = ResourceApiRules.kubernetes136();
    Admission claim = rules.create(TestJson.node("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceClaim",
         "metadata":{"name":"c","namespace":"ml"},
         "spec":{"devices":{"requests":[{"name":"gpu","exactly":{"deviceClassName":"gpu",
           "selectors":[{"cel":{"expression":"device.driver == 'gpu.example.com'"}}]}}]}}}"""));
    System.out.println("claim accepted=" + claim.accepted() + " errors=" + claim.errors());
    Admission slice = rules.create(TestJson.node("""
        {"apiVersion":"resource.k8s.io/v1","kind":"ResourceSlice","metadata":{"name":"s"},
         "spec":{"driver":"gpu.example.com","pool":{"name":"node-a","resourceSliceCount":1},
         "nodeName":"node-a","devices":[{"name":"gpu-0"}]}}"""));
    System.out.println("slice accepted=" + slice.accepted() + " errors=" + slice.errors());
  }
}
