/**
 * Reading spec files as the runtimes' CDI library reads them, {@code .json} files included: YAML
 * 1.1 with anchors, aliases and merges, its YAML-to-JSON conversion, then strict JSON decoding;
 * and compact JSON writing ({@link io.github.dra4j.cdi.codec.SpecCodec}).
 */
package io.github.dra4j.cdi.codec;
