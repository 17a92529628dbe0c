/**
 * Certificates for testing what a driver serves over HTTPS, above all its admission webhook,
 * without openssl, cert-manager or a cluster.
 *
 * <ul>
 *   <li>{@link io.github.dra4j.testing.tls.TestCertificateAuthority}: a CA made in memory that
 *       issues server certificates for {@code localhost}, and a client TLS context that trusts
 *       only it, so a test verifies the chain and the host name as the API server does;
 *   <li>{@link io.github.dra4j.testing.tls.IssuedCertificate}: one certificate with its key, as
 *       PEM in the encodings cert-manager and openssl write;
 *   <li>{@link io.github.dra4j.testing.tls.TlsSecretVolume}: a directory laid out as the kubelet
 *       mounts a {@code kubernetes.io/tls} Secret, updated as the kubelet updates it when
 *       cert-manager renews the certificate, to test a server that reloads its files.
 * </ul>
 *
 * <pre>{@code
 * TestCertificateAuthority ca = TestCertificateAuthority.create();
 * TlsSecretVolume volume = TlsSecretVolume.create(tempDir.resolve("tls"));
 * volume.update(ca.issue("webhook"));
 * AdmissionWebhookServer server = AdmissionWebhookServer.builder(handler)
 *     .tls(volume.certificateFile(), volume.keyFile()).port(0).start();
 * HttpClient client = HttpClient.newBuilder().sslContext(ca.clientContext()).build();
 * // ... later, a renewal: new connections get the new certificate
 * volume.update(ca.issue("webhook-renewed"));
 * }</pre>
 *
 * <p>The keys and certificates are made with BouncyCastle, an implementation independent of the
 * JDK code the SDK reads them with. They are for tests only: the CA's key is never stored and
 * its certificates are valid for one day.
 */
package io.github.dra4j.testing.tls;
