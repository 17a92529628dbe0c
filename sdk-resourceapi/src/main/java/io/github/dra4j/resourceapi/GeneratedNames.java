package io.github.dra4j.resourceapi;

import java.security.SecureRandom;
import java.util.Random;

/**
 * Completes {@code metadata.generateName} as kube-apiserver does before it validates a new
 * object: the prefix, cut to 58 characters, plus 5 random characters from the alphabet {@code
 * bcdfghjklmnpqrstvwxz2456789} (no vowels, no look-alike digits). Thread-safe.
 */
public final class GeneratedNames {

  /** The characters the API server draws suffixes from. */
  public static final String ALPHABET = "bcdfghjklmnpqrstvwxz2456789";

  /** Length of the random suffix. */
  public static final int SUFFIX_LENGTH = 5;

  private static final int MAX_PREFIX_LENGTH = 63 - SUFFIX_LENGTH;

  private final Random random;

  /** Creates a generator with a secure random source. */
  public GeneratedNames() {
    this(new SecureRandom());
  }

  /**
   * Creates a generator with the given random source (tests use a seeded one).
   *
   * @param random the source of suffix characters
   */
  public GeneratedNames(Random random) {
    this.random = random;
  }

  /**
   * Generates a name.
   *
   * @param prefix the {@code generateName} value
   * @return prefix (at most 58 characters) plus a 5-character random suffix
   */
  public String generate(String prefix) {
    String base = prefix.length() > MAX_PREFIX_LENGTH ? prefix.substring(0, MAX_PREFIX_LENGTH)
        : prefix;
    StringBuilder name = new StringBuilder(base.length() + SUFFIX_LENGTH).append(base);
    synchronized (random) {
      for (int i = 0; i < SUFFIX_LENGTH; i++) {
        name.append(ALPHABET.charAt(random.nextInt(ALPHABET.length())));
      }
    }
    return name.toString();
  }
}
