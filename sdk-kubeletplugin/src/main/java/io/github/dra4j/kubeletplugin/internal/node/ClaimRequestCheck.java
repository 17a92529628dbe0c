package io.github.dra4j.kubeletplugin.internal.node;

import io.github.dra4j.core.name.NameRules;
import io.github.dra4j.kubelet.wire.dra.v1.Claim;
import io.github.dra4j.kubeletplugin.internal.logging.LogText;
import java.util.Optional;

/**
 * Checks the claim references the kubelet sends before anything uses them.
 *
 * <p>Everything from the kubelet is untrusted: the UID can end up in file names (CDI specs,
 * checkpoints), namespace and name in API paths. A reference that fails a check fails only that
 * claim. Stateless.
 */
public final class ClaimRequestCheck {

  private ClaimRequestCheck() {}

  /**
   * Checks one claim reference.
   *
   * @param index position of the claim in the request, for the message
   * @param claim the reference as the kubelet sent it
   * @return empty if valid, else a message naming the claim, the field and the value
   */
  public static Optional<String> problem(int index, Claim claim) {
    // NameRules answers valid values without a regular expression or an allocation.
    String where = "claim #" + index;
    if (NameRules.uid(claim.getUid()).isPresent()) {
      return Optional.of(
          where + ": field \"uid\" is " + quote(claim.getUid())
              + ": must be 1-64 letters, digits or '-', starting and ending with a letter or digit");
    }
    if (NameRules.dnsLabel(claim.getNamespace()).isPresent()) {
      return Optional.of(
          where + " (uid " + claim.getUid() + "): field \"namespace\" is "
              + quote(claim.getNamespace())
              + ": must be a DNS label (at most 63 lower-case letters, digits or '-')");
    }
    if (NameRules.dnsSubdomain(claim.getName(), NameRules.DNS_SUBDOMAIN_MAX).isPresent()) {
      return Optional.of(
          where + " (uid " + claim.getUid() + "): field \"name\" is " + quote(claim.getName())
              + ": must be a DNS subdomain (at most 253 lower-case letters, digits, '-' or '.')");
    }
    return Optional.empty();
  }

  /**
   * Quotes a value for an error message, escaping control characters and shortening long values
   * so a hostile request cannot flood the logs.
   *
   * @param value any string
   * @return the value in double quotes
   */
  public static String quote(String value) {
    return LogText.quote(value, 80);
  }
}
