/**
 * What a dra4j driver costs the API server per node, and so per cluster: a simulation of many
 * driver instances against one in-memory API server that counts every request by verb and
 * resource and the watch streams held, for each event of a node's life, with the default settings,
 * the opt-in claim cache and a plain {@code DraDriver}; a model that multiplies the per-node
 * figures by the node count, checked against the many-instance run.
 */
package io.github.dra4j.benchmarks.clusterscale;
