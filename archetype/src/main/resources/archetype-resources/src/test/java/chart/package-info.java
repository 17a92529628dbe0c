/**
 * Tests of the Helm chart in {@code deployments/helm/${artifactId}}, rendered by a real Helm
 * (set {@code DRA4J_HELM} to its path; the tests are skipped, saying so, without it).
 */
package ${package}.chart;
