package io.github.dra4j.kubeletplugin.internal.env;

import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientImpl;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.Authenticator;
import java.net.CookieHandler;
import java.net.InetAddress;
import java.net.ProxySelector;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * fabric8's JDK HTTP client factory, whose clients also stop the JDK client's selector thread when
 * they close. fabric8 shuts down only the client's executor; the JDK's {@code
 * HttpClient-N-SelectorManager} thread goes on waiting in {@code epoll_wait} (up to 3 s at a time)
 * until the client is garbage-collected, and a JVM that exits waits up to 300 ms for every thread
 * that is in native code. {@code HttpClient.shutdownNow()} (JDK 21 and newer) stops it at once; on
 * JDK 17 the factory behaves as fabric8's.
 *
 * <p>Only for a client the plugin makes and closes itself. Thread-safe.
 */
public final class StoppingJdkHttpClientFactory extends JdkHttpClientFactory {

  private static final Logger LOG = LoggerFactory.getLogger(StoppingJdkHttpClientFactory.class);
  private static final Method SHUTDOWN_NOW = shutdownNow();

  /** The JDK clients built, all stopped when fabric8 closes its client (derived ones share). */
  private final List<HttpClient> built = new CopyOnWriteArrayList<>();

  /** Creates the factory. */
  public StoppingJdkHttpClientFactory() {}

  /**
   * Whether this JVM can stop a JDK HTTP client's selector thread.
   *
   * @return true on JDK 21 and newer
   */
  public static boolean canStopSelectors() {
    return SHUTDOWN_NOW != null;
  }

  @Override
  protected HttpClient.Builder createNewHttpClientBuilder() {
    return new Recording(super.createNewHttpClientBuilder(), built);
  }

  @Override
  protected void closeHttpClient(JdkHttpClientImpl client) {
    super.closeHttpClient(client);
    if (SHUTDOWN_NOW == null) {
      return;
    }
    for (HttpClient jdk : built) {
      try {
        SHUTDOWN_NOW.invoke(jdk);
      } catch (IllegalAccessException | InvocationTargetException e) {
        LOG.debug("Cannot stop the JDK HTTP client {}: {}", jdk, e.toString());
      }
    }
    built.clear();
  }

  private static Method shutdownNow() {
    try {
      return HttpClient.class.getMethod("shutdownNow");
    } catch (NoSuchMethodException e) {
      return null; // JDK 17 to 20
    }
  }

  /** Builds the JDK client as fabric8 configured it, and records it. */
  private static final class Recording implements HttpClient.Builder {
    private final HttpClient.Builder delegate;
    private final List<HttpClient> built;

    Recording(HttpClient.Builder delegate, List<HttpClient> built) {
      this.delegate = delegate;
      this.built = built;
    }

    @Override
    public HttpClient.Builder cookieHandler(CookieHandler cookieHandler) {
      delegate.cookieHandler(cookieHandler);
      return this;
    }

    @Override
    public HttpClient.Builder connectTimeout(Duration duration) {
      delegate.connectTimeout(duration);
      return this;
    }

    @Override
    public HttpClient.Builder sslContext(SSLContext sslContext) {
      delegate.sslContext(sslContext);
      return this;
    }

    @Override
    public HttpClient.Builder sslParameters(SSLParameters sslParameters) {
      delegate.sslParameters(sslParameters);
      return this;
    }

    @Override
    public HttpClient.Builder executor(Executor executor) {
      delegate.executor(executor);
      return this;
    }

    @Override
    public HttpClient.Builder followRedirects(HttpClient.Redirect policy) {
      delegate.followRedirects(policy);
      return this;
    }

    @Override
    public HttpClient.Builder version(HttpClient.Version version) {
      delegate.version(version);
      return this;
    }

    @Override
    public HttpClient.Builder priority(int priority) {
      delegate.priority(priority);
      return this;
    }

    @Override
    public HttpClient.Builder proxy(ProxySelector proxySelector) {
      delegate.proxy(proxySelector);
      return this;
    }

    @Override
    public HttpClient.Builder authenticator(Authenticator authenticator) {
      delegate.authenticator(authenticator);
      return this;
    }

    /** JDK 19+: passed on (the JDK's default method would refuse it). */
    // Compiled for Java 17, where HttpClient.Builder has no such method to override; on JDK 19
    // and newer it overrides the interface's default method and the HTTP client calls it.
    @SuppressWarnings({"UnusedMethod", "EffectivelyPrivate"})
    public HttpClient.Builder localAddress(InetAddress localAddress) {
      try {
        HttpClient.Builder.class.getMethod("localAddress", InetAddress.class)
            .invoke(delegate, localAddress);
      } catch (ReflectiveOperationException e) {
        throw new UnsupportedOperationException("localAddress needs JDK 19 or newer", e);
      }
      return this;
    }

    @Override
    public HttpClient build() {
      HttpClient client = delegate.build();
      built.add(client);
      return client;
    }
  }
}
