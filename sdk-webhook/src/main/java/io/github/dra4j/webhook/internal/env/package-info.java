/** The webhook's settings from the environment; not an API. */
package io.github.dra4j.webhook.internal.env;
