/**
 * Checks of settings and options, each with one wording wherever dra4j or a driver uses it:
 *
 * <ul>
 *   <li>{@link io.github.dra4j.core.option.OptionChecks}: a builder's setter refuses a bad value
 *       at once, naming the option;
 *   <li>{@link io.github.dra4j.core.option.SettingsCheck}: settings given as text (environment
 *       variables, or flags defaulting to them) are checked together, and every malformed one is
 *       named with its variable and value in one message.
 * </ul>
 */
package io.github.dra4j.core.option;
