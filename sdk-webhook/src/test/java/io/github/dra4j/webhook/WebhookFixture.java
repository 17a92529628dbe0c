package io.github.dra4j.webhook;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.cert.X509Certificate;
import java.time.Duration;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLSocket;

/**
 * A test CA, the webhook's TLS files in a directory, and clients that trust the CA: the JDK's
 * HTTP client (keep-alive) and raw TLS sockets for what a well-behaved client never sends.
 */
final class WebhookFixture {

  final TestCertificates certificates;
  final Path certificateFile;
  final Path keyFile;
  final SSLContext clientContext;
  final HttpClient client;

  WebhookFixture(Path directory) throws Exception {
    certificates = new TestCertificates();
    certificateFile = directory.resolve("tls.crt");
    keyFile = directory.resolve("tls.key");
    rotate(TestCertificates.Algorithm.RSA, TestCertificates.KeyEncoding.TRADITIONAL, "first");
    clientContext = certificates.clientContext();
    client = HttpClient.newBuilder().sslContext(clientContext)
        .version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(5)).build();
  }

  /**
   * Writes a new certificate and key the way the kubelet updates a mounted Secret: new files
   * written beside the old ones, then renamed over them.
   */
  TestCertificates.Issued rotate(TestCertificates.Algorithm algorithm,
      TestCertificates.KeyEncoding encoding, String commonName) throws Exception {
    TestCertificates.Issued issued = certificates.issue(algorithm, commonName);
    Path newCertificate = certificateFile.resolveSibling("tls.crt.new");
    Path newKey = keyFile.resolveSibling("tls.key.new");
    certificates.write(issued, encoding, newCertificate, newKey);
    Files.move(newKey, keyFile, StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
    Files.move(newCertificate, certificateFile, StandardCopyOption.REPLACE_EXISTING,
        StandardCopyOption.ATOMIC_MOVE);
    return issued;
  }

  HttpResponse<String> post(AdmissionWebhookServer server, String contentType, String body)
      throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(uri(server,
        AdmissionWebhookServerBuilder.DEFAULT_PATH))
        .header("Content-Type", contentType)
        .timeout(Duration.ofSeconds(20))
        .POST(HttpRequest.BodyPublishers.ofString(body)).build();
    return client.send(request, HttpResponse.BodyHandlers.ofString());
  }

  HttpResponse<String> get(AdmissionWebhookServer server, String path)
      throws IOException, InterruptedException {
    return client.send(HttpRequest.newBuilder(uri(server, path)).timeout(Duration.ofSeconds(20))
        .GET().build(), HttpResponse.BodyHandlers.ofString());
  }

  static URI uri(AdmissionWebhookServer server, String path) {
    return URI.create("https://localhost:" + server.port() + path);
  }

  /** Opens a TLS connection and returns it after the handshake. */
  SSLSocket connect(AdmissionWebhookServer server) throws IOException {
    SSLSocket socket = (SSLSocket) clientContext.getSocketFactory()
        .createSocket("localhost", server.port());
    socket.setSoTimeout(20_000);
    socket.startHandshake();
    return socket;
  }

  /** The certificate a new connection is served. */
  X509Certificate servedCertificate(AdmissionWebhookServer server) throws IOException {
    try (SSLSocket socket = connect(server)) {
      return (X509Certificate) socket.getSession().getPeerCertificates()[0];
    }
  }

  static void writeAscii(OutputStream out, String text) throws IOException {
    out.write(text.getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** Reads what the server sends until it closes the connection. */
  static String readAll(InputStream in) throws IOException {
    return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
  }
}
