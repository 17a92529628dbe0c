package io.github.dra4j.cel;

import static io.github.dra4j.cel.FunctionLibrary.global;
import static io.github.dra4j.cel.FunctionLibrary.member;
import static io.github.dra4j.cel.KubernetesTypes.BOOL;
import static io.github.dra4j.cel.KubernetesTypes.CIDR;
import static io.github.dra4j.cel.KubernetesTypes.INT;
import static io.github.dra4j.cel.KubernetesTypes.IP;
import static io.github.dra4j.cel.KubernetesTypes.STRING;

import dev.cel.common.CelFunctionDecl;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelFunctionBinding;
import io.github.dra4j.cel.NetworkValues.Cidr;
import io.github.dra4j.cel.NetworkValues.IpAddress;
import java.util.List;

/** The Kubernetes IP and CIDR libraries: {@code ip()}, {@code cidr()} and their members. */
final class NetworkFunctions implements FunctionLibrary {

  @Override
  public List<CelFunctionDecl> declarations() {
    return List.of(
        global("ip", "string_to_ip", IP, STRING),
        global("isIP", "is_ip", BOOL, STRING),
        global("ip.isCanonical", "ip_is_canonical", BOOL, STRING),
        member("family", "ip_family", INT, IP),
        member("isUnspecified", "ip_is_unspecified", BOOL, IP),
        member("isLoopback", "ip_is_loopback", BOOL, IP),
        member("isLinkLocalMulticast", "ip_is_link_local_multicast", BOOL, IP),
        member("isLinkLocalUnicast", "ip_is_link_local_unicast", BOOL, IP),
        member("isGlobalUnicast", "ip_is_global_unicast", BOOL, IP),
        global("string", "ip_to_string", STRING, IP),
        global("cidr", "string_to_cidr", CIDR, STRING),
        global("isCIDR", "is_cidr", BOOL, STRING),
        member("containsIP", "cidr_contains_ip_string", BOOL, CIDR, STRING),
        member("containsIP", "cidr_contains_ip_ip", BOOL, CIDR, IP),
        member("containsCIDR", "cidr_contains_cidr_string", BOOL, CIDR, STRING),
        member("containsCIDR", "cidr_contains_cidr", BOOL, CIDR, CIDR),
        member("ip", "cidr_ip", IP, CIDR),
        member("prefixLength", "cidr_prefix_length", INT, CIDR),
        member("masked", "cidr_masked", CIDR, CIDR),
        global("string", "cidr_to_string", STRING, CIDR));
  }

  @Override
  public List<CelFunctionBinding> bindings() {
    Class<IpAddress> ip = IpAddress.class;
    Class<Cidr> cidr = Cidr.class;
    return List.of(
        CelFunctionBinding.from("string_to_ip", String.class, NetworkFunctions::ip),
        CelFunctionBinding.from("is_ip", String.class, s -> valid(() -> NetworkValues.parseIp(s))),
        CelFunctionBinding.from(
            "ip_is_canonical", String.class, s -> ip(s).toString().equals(s)),
        CelFunctionBinding.from("ip_family", ip, IpAddress::family),
        CelFunctionBinding.from("ip_is_unspecified", ip, IpAddress::isUnspecified),
        CelFunctionBinding.from("ip_is_loopback", ip, IpAddress::isLoopback),
        CelFunctionBinding.from("ip_is_link_local_multicast", ip, IpAddress::isLinkLocalMulticast),
        CelFunctionBinding.from("ip_is_link_local_unicast", ip, IpAddress::isLinkLocalUnicast),
        CelFunctionBinding.from("ip_is_global_unicast", ip, IpAddress::isGlobalUnicast),
        CelFunctionBinding.from("ip_to_string", ip, IpAddress::toString),
        CelFunctionBinding.from("string_to_cidr", String.class, NetworkFunctions::cidr),
        CelFunctionBinding.from(
            "is_cidr", String.class, s -> valid(() -> NetworkValues.parseCidr(s))),
        CelFunctionBinding.from(
            "cidr_contains_ip_string", cidr, String.class, (c, s) -> c.containsIp(ip(s))),
        CelFunctionBinding.from("cidr_contains_ip_ip", cidr, ip, Cidr::containsIp),
        CelFunctionBinding.from(
            "cidr_contains_cidr_string", cidr, String.class, (c, s) -> c.containsCidr(cidr(s))),
        CelFunctionBinding.from("cidr_contains_cidr", cidr, cidr, Cidr::containsCidr),
        CelFunctionBinding.from("cidr_ip", cidr, Cidr::ip),
        CelFunctionBinding.from("cidr_prefix_length", cidr, Cidr::prefixLength),
        CelFunctionBinding.from("cidr_masked", cidr, Cidr::masked),
        CelFunctionBinding.from("cidr_to_string", cidr, Cidr::toString));
  }

  private static IpAddress ip(String text) throws CelEvaluationException {
    try {
      return NetworkValues.parseIp(text);
    } catch (IllegalArgumentException e) {
      throw FunctionLibrary.error(e);
    }
  }

  private static Cidr cidr(String text) throws CelEvaluationException {
    try {
      return NetworkValues.parseCidr(text);
    } catch (IllegalArgumentException e) {
      throw FunctionLibrary.error(e);
    }
  }

  private static boolean valid(Runnable parse) {
    try {
      parse.run();
      return true;
    } catch (IllegalArgumentException e) {
      return false;
    }
  }
}
