/**
 * Validation of CDI specs: the reference library's load-time rules and this SDK's stricter writer
 * rules ({@link io.github.dra4j.cdi.validation.SpecValidator}), with problems that name the
 * device, field and value.
 */
package io.github.dra4j.cdi.validation;
