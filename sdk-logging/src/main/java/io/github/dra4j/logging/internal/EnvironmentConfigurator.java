package io.github.dra4j.logging.internal;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.jul.LevelChangePropagator;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.EncoderBase;
import ch.qos.logback.core.spi.ContextAwareBase;
import io.github.dra4j.logging.KlogTextEncoder;
import io.github.dra4j.logging.KubernetesJsonEncoder;
import io.github.dra4j.logging.LogFormat;
import io.github.dra4j.logging.LoggingSettings;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.slf4j.bridge.SLF4JBridgeHandler;

/**
 * Configures logback from the environment, found by logback's service loader (no XML: parsing a
 * {@code logback.xml} costs a tenth of a second at start-up). One console appender on standard
 * error with the encoder {@value LoggingSettings#FORMAT_VARIABLE} names, the root level {@value
 * LoggingSettings#LEVEL_VARIABLE} names, levels propagated to {@code java.util.logging}, whose
 * records then go through SLF4J (its own console handler removed, so nothing is printed twice).
 * A value that names nothing is logged as one warning in the chosen format.
 *
 * <p>It steps aside for a configuration file: when the system property {@code
 * logback.configurationFile} is set, or a {@code logback-test.xml} or {@code logback.xml} is on
 * the class path, logback's own configurators read it instead, so an operator who needs a level
 * per logger can mount one without a new image. Runs once per logger context, on the thread that
 * first asks SLF4J for a logger.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class EnvironmentConfigurator extends ContextAwareBase implements Configurator {

  /** The logger the configuration's own warnings are logged with. */
  public static final String LOGGER = "io.github.dra4j.logging";

  private final Map<String, String> environment;
  private final UnaryOperator<String> properties;
  private final ClassLoader classLoader;
  private final boolean bridgeJul;

  /** The configurator logback's service loader creates: this process's environment. */
  public EnvironmentConfigurator() {
    this(System.getenv(), System::getProperty, EnvironmentConfigurator.class.getClassLoader(),
        true);
  }

  /**
   * A configurator of given inputs, for tests.
   *
   * @param environment the environment variables
   * @param properties the system properties
   * @param classLoader where configuration files are looked for
   * @param bridgeJul whether to route {@code java.util.logging} (JVM-wide) through SLF4J
   */
  public EnvironmentConfigurator(Map<String, String> environment,
      UnaryOperator<String> properties, ClassLoader classLoader, boolean bridgeJul) {
    this.environment = environment;
    this.properties = properties;
    this.classLoader = classLoader;
    this.bridgeJul = bridgeJul;
  }

  @Override
  public ExecutionStatus configure(LoggerContext context) {
    String file = properties.apply("logback.configurationFile");
    if ((file != null && !file.isBlank()) || classLoader.getResource("logback-test.xml") != null
        || classLoader.getResource("logback.xml") != null) {
      addInfo("a logback configuration file is given; LOG_LEVEL and LOG_FORMAT are not read");
      return ExecutionStatus.INVOKE_NEXT_IF_ANY;
    }
    LoggingSettings settings = LoggingSettings.from(environment,
        properties.apply(LoggingSettings.DEFAULT_LEVEL_PROPERTY));

    // Before any level is set, so that the root's level reaches java.util.logging too.
    LevelChangePropagator propagator = new LevelChangePropagator();
    propagator.setContext(context);
    propagator.setResetJUL(true);
    propagator.start();
    context.addListener(propagator);

    EncoderBase<ILoggingEvent> encoder = settings.format() == LogFormat.JSON
        ? new KubernetesJsonEncoder() : new KlogTextEncoder();
    encoder.setContext(context);
    encoder.start();
    ConsoleAppender<ILoggingEvent> appender = new ConsoleAppender<>();
    appender.setContext(context);
    appender.setName("stderr");
    appender.setTarget("System.err");
    appender.setEncoder(encoder);
    appender.start();

    Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
    root.setLevel(Level.toLevel(settings.level().name()));
    root.addAppender(appender);
    if (bridgeJul) {
      SLF4JBridgeHandler.removeHandlersForRootLogger();
      if (!SLF4JBridgeHandler.isInstalled()) {
        SLF4JBridgeHandler.install();
      }
    }
    Logger own = context.getLogger(LOGGER);
    for (String problem : settings.problems()) {
      own.warn(problem);
    }
    return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
  }
}
