/**
 * Rules shared by the model's builders and the spec validator; not a public API, may change in
 * any release.
 */
package io.github.dra4j.cdi.internal;
