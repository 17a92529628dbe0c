/**
 * The driver's demo: {@code ./mvnw -B -q test-compile exec:exec@demo} runs it on a simulated node
 * and prints each step.
 */
package ${package}.demo;
