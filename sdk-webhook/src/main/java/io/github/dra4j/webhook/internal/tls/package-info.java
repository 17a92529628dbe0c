/**
 * Internal: the webhook's TLS identity, read from PEM files (PKCS #8, PKCS #1 and SEC 1 keys)
 * and switched to new contents when the files change.
 */
package io.github.dra4j.webhook.internal.tls;
