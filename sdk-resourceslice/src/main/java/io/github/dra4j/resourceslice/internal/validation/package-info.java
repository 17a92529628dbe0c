/**
 * Client-side validation of a driver's pools against the ResourceSlice API rules, one message per
 * violation, before anything is sent.
 */
package io.github.dra4j.resourceslice.internal.validation;
