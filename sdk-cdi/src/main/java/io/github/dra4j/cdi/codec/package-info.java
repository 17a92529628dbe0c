/**
 * Strict JSON/YAML reading and compact JSON writing of CDI spec files with Jackson 3
 * ({@link io.github.dra4j.cdi.codec.SpecCodec}).
 */
package io.github.dra4j.cdi.codec;
