/**
 * Option checks shared by dra4j's builders ({@link io.github.dra4j.core.option.OptionChecks}), so
 * every builder refuses a bad value at the setter with the same wording.
 */
package io.github.dra4j.core.option;
